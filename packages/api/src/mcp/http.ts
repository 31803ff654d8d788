/**
 * MCP over streamable HTTP at `/mcp`, stateless: every POST gets a fresh server and transport, so any
 * instance can answer any request and nothing is kept between them (no session id, no server-to-client
 * stream). Web-standard transport, so it runs on Node and on Workers alike.
 */
import { Hono } from "hono"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { createMcpServer } from "./server.js"
import type { McpServices } from "./services.js"

// Stateless: no standalone SSE stream (GET) and no session to end (DELETE); the spec's answer is 405.
const methodNotAllowed = () =>
  Response.json(
    { jsonrpc: "2.0", error: { code: ErrorCode.ConnectionClosed, message: "method not allowed: this endpoint is stateless, send each message with POST" }, id: null },
    { status: 405, headers: { allow: "POST" } },
  )

export const mcpRoutes = (services: McpServices) =>
  new Hono()
    .post("/", async (c) => {
      const server = createMcpServer(services)
      // JSON responses rather than an SSE stream: every answer is complete when handleRequest resolves,
      // so the server can be closed at once.
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      const request = c.req.raw
      // a client that hangs up cancels its running script: closing the transport aborts in-flight handlers
      const hangUp = () => void transport.close()
      request.signal.addEventListener("abort", hangUp, { once: true })
      try {
        await server.connect(transport)
        return await transport.handleRequest(request)
      } finally {
        request.signal.removeEventListener("abort", hangUp)
        await server.close()
      }
    })
    .get("/", methodNotAllowed)
    .delete("/", methodNotAllowed)
