/**
 * What the /mcp route (./http.ts) needs of the MCP SDK's server side, loaded by the route's first request rather
 * than with the app: building its schemas is a large share of a server's start (bench/README.md, "pnpm bench:startup").
 */
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
export { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
export { createMcpServer } from "./server.js"
