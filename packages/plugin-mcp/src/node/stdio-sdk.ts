/** The MCP SDK's stdio helpers, loaded when the first stdio server starts (./stdio-transport.ts), not with the host. */
export { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js"
export { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js"
