/**
 * The MCP SDK's client side, as connection.ts and invoke.ts use it: loaded at the first connection (./load-sdk.ts),
 * not with the plugin. Building its schemas (zod) takes the host's main thread long enough to show in a server's
 * start (bench/README.md, "pnpm bench:startup"), which a server would otherwise pay before it listens.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js"
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
export { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js"
export { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
