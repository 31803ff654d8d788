/**
 * @switchboard/plugin-mcp — the SourcePlugin for MCP servers (stdio and streamable HTTP).
 * It turns `tools/list` into catalog rows and `tools/call` into raw results; decoding belongs to core.
 * stdio needs a host that can spawn processes (Node); a Workers host uses HTTP sources only. The Node-only
 * egress guard for http sources is at `@switchboard/plugin-mcp/node`.
 */
export { createMcpPlugin, McpPlugin } from "./plugin.js"
export { ConnectionPool, ConnectFailed, NotProcessed, isConnectFailed } from "./pool.js"
export type { ConnectionPoolShape, PoolOptions } from "./pool.js"
export type { McpPluginOptions } from "./plugin.js"
export type { StdioAllowance } from "./connection.js"
export { StdioSpawner } from "./stdio-spawner.js"
export type { SpawnStdio, StdioServer, StdioTransport } from "./stdio-spawner.js"
export type { McpSourceConfig, McpTransportConfig } from "./config.js"
export { mcpSourceConfig, mcpSourcePatch } from "./config-schema.js"
export { mcpConfigView } from "./config-view.js"
export { SourceRefusal, STDIO_DISABLED_MESSAGE } from "./refusal.js"
export { classifyAddress, ipLiteral } from "@switchboard/core"
export type { AddressClass } from "@switchboard/core"
