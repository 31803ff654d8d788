/** The MCP surface: one server builder for every transport, and the stateless streamable HTTP route. */
export { createMcpServer } from "./server.js"
export { MCP_SERVER_INFO } from "./server-info.js"
export { mcpRoutes } from "./http.js"
export type { McpRouteOptions } from "./http.js"
export { executeDescription } from "./execute-tool.js"
export type { McpServices } from "./services.js"
