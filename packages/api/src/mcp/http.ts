/**
 * MCP over streamable HTTP at `/mcp`, stateless: every POST gets a fresh server and transport, so any
 * instance can answer any request and nothing is kept between them (no session id, no server-to-client
 * stream). Web-standard transport, so it runs on Node and on Workers alike. Host and Origin are checked by
 * the app's request guard before a request gets here (../request-guard.ts); the transport's own
 * `enableDnsRebindingProtection` is deprecated in favour of such middleware, and is left off.
 */
import { Hono } from "hono"
import { DEFAULT_MAX_BODY_BYTES } from "../body-limit.js"
import type { AppEnv } from "../env.js"
import type * as HttpSdk from "./http-sdk.js"
import type { McpServices } from "./services.js"

let sdk: Promise<typeof HttpSdk> | undefined
/** the SDK's server side, loaded by the first request here (./http-sdk.ts) */
const loadSdk = () => (sdk ??= import("./http-sdk.js"))

// Stateless: no standalone SSE stream (GET) and no session to end (DELETE); the spec's answer is 405.
const methodNotAllowed = async () =>
  Response.json(
    {
      jsonrpc: "2.0",
      error: {
        code: (await loadSdk()).ErrorCode.ConnectionClosed,
        message: "method not allowed: this endpoint is stateless, send each message with POST",
      },
      id: null,
    },
    { status: 405, headers: { allow: "POST" } },
  )

export interface McpRouteOptions {
  /**
   * The transport's own bound on a POST body (the SDK's default is 4 MiB). The app passes its body limit, so
   * the app's `body_too_large` answer is the one a client meets, at one size for /v1 and /mcp.
   */
  maxBodyBytes?: number
}

export const mcpRoutes = (services: McpServices, { maxBodyBytes = DEFAULT_MAX_BODY_BYTES }: McpRouteOptions = {}) =>
  new Hono<AppEnv>()
    .post("/", async (c) => {
      // the request's key decides which tools it sees and may call
      const executed = (executionId: string) => c.set("executionId", executionId)
      const { WebStandardStreamableHTTPServerTransport, createMcpServer } = await loadSdk()
      // stateless with JSON answers: no stream carries a request to the client, so nothing is asked (elicitation);
      // an execute that pauses answers the paused text, and `resume` the result
      const server = createMcpServer({ ...services, executed }, c.get("caller"), { elicitation: false })
      // JSON responses rather than an SSE stream: every answer is complete when handleRequest resolves,
      // so the server can be closed at once.
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: maxBodyBytes,
      })
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
