/**
 * What the /mcp route (./http.ts) needs of the MCP SDK's server side, loaded by the route's first request rather
 * than with the app: its schemas take ~60 ms of a server's start to build (bench/README, "pnpm bench:startup").
 */
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
export { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
export { createMcpServer } from "./server.js"
