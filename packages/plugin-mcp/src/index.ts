/**
 * @switchboard/plugin-mcp — the SourcePlugin for MCP servers (stdio and streamable HTTP).
 * It turns `tools/list` into catalog rows and `tools/call` into raw results; decoding belongs to core.
 * stdio needs a host that can spawn processes (Node); a Workers host uses HTTP sources only.
 */
export { createMcpPlugin } from "./plugin.js"
export type { McpPluginOptions } from "./plugin.js"
export type { McpSourceConfig, McpTransportConfig } from "./config.js"
