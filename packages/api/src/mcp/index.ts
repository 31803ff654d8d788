/** The MCP surface: one server builder for every transport, and the stateless streamable HTTP route (./http.ts). */
export { createMcpServer } from "./server.js"
export type { McpServerOptions } from "./server.js"
export { MCP_SERVER_INFO } from "./server-info.js"
export { executeDescription } from "./execute-tool.js"
export { EXECUTION_META } from "./run-result.js"
export { RESUME_WAIT_MS } from "./settle.js"
export type { McpServices } from "./services.js"
