/**
 * MCP over streamable HTTP at `/mcp`, stateless: every POST gets a fresh server and transport, so any
 * instance can answer any request and nothing is kept between them (no session id, no server-to-client
 * stream). Web-standard transport, so it runs on Node and on Workers alike. Host and Origin are checked by
 * the app's request guard before a request gets here (../request-guard.ts); the transport's own
 * `enableDnsRebindingProtection` is deprecated in favour of such middleware, and is left off.
 */
import { routeGroup } from "../routes/route-group.js"
import { readByHandler } from "../routes/route-spec.js"
import { jsonRpcMessage } from "../wire/json-rpc.js"
import { approvalPageUrl, serverBase } from "../console-links.js"
import type * as HttpSdk from "./http-sdk.js"

/**
 * The POST's JSON, read through hono's request: the transport's own read goes through `request.body`, which on
 * @hono/node-server builds a whole undici Request and stream (../body-limit.ts), the largest cost of a small POST.
 * Its size was bounded before here (limitBody). Undefined when it is not JSON or could not be read: the transport
 * takes an undefined `parsedBody` as none, reads what is left, nothing, and answers its own parse error.
 */
const readJsonBody = async (request: { text(): Promise<string> }): Promise<unknown> => {
  try {
    return JSON.parse(await request.text())
  } catch {
    return undefined
  }
}

/** V8's stack depth setting, on Node and Workers alike; not in the ECMAScript types this package compiles against */
const v8Errors = Error as ErrorConstructor & { stackTraceLimit: number }

/**
 * Closes a server that answered its one POST. The SDK's close makes an error for any request the server still
 * awaits from the client and aborts any handler still registered; a stateless server awaits none and its handlers
 * have answered, so those errors are never read, and capturing their stacks is most of what a close costs. The
 * close does that synchronously, before its first await, so the stack limit is back before anything else runs.
 */
const closeServed = (server: { close(): Promise<void> }) => {
  const limit = v8Errors.stackTraceLimit
  v8Errors.stackTraceLimit = 0
  try {
    return server.close()
  } finally {
    v8Errors.stackTraceLimit = limit
  }
}

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

const notServed = {
  405: {
    description: "a JSON-RPC error; send each message with POST",
    json: jsonRpcMessage,
    headers: { Allow: { schema: { const: "POST" } } },
  },
}

/**
 * The app's body limit goes to the transport as its own bound on a POST body (the SDK's default is 4 MiB), so
 * the app's `body_too_large` answer is the one a client meets, at one size for /v1 and /mcp.
 */
export const mcpRoutes = routeGroup((services, { maxBodyBytes, console, publicUrl }) => ({
  services,
  maxBodyBytes,
  console,
  publicUrl,
}))
  .route({
    method: "post",
    path: "/mcp",
    // each tool checks its own scope (./tool-scopes.ts)
    scope: null,
    jsonRpc: true,
    operationId: "mcp",
    tag: "mcp",
    summary: "One MCP JSON-RPC message, answered with a JSON response and no session id",
    description:
      "The tools are execute, resume, describe, read_output and grep_output. Send `accept: application/json, text/event-stream`. " +
      "Stateless, the endpoint cannot ask the client anything (no elicitation): an execute that pauses for an approval answers the paused text, " +
      "and `resume` gives the result once a person decided. " +
      "Any live key may connect; `execute`, `resume` and `describe` need the `execute` scope, `read_output` and `grep_output` the `read` scope " +
      "and only the key's own executions (unless `admin`). " +
      "tools/list shows a key only the tools it may call; calling another gives an error result naming the scope.",
    body: readByHandler("JsonRpcRequest"),
    responses: {
      200: { description: "the JSON-RPC response", json: jsonRpcMessage },
      202: { description: "a notification or response was accepted; nothing to answer" },
      400: { description: "not a JSON-RPC message (a JSON-RPC error)", json: jsonRpcMessage },
      406: {
        description: "the accept header lacks application/json or text/event-stream (a JSON-RPC error)",
        json: jsonRpcMessage,
      },
    },
    handler: async (c, { services, maxBodyBytes, console, publicUrl }) => {
      // the request's key decides which tools it sees and may call
      const executed = (executionId: string) => c.set("executionId", executionId)
      const { WebStandardStreamableHTTPServerTransport, createMcpServer, ErrorCode } = await loadSdk()
      // stateless with JSON answers: no stream carries a request to the client, so nothing is asked (elicitation);
      // an execute that pauses answers the paused text, and `resume` the result
      const origin = serverBase(c.req.raw, publicUrl)
      const approvalPage = console ? (id: string) => approvalPageUrl(origin, id) : undefined
      const server = createMcpServer({ ...services, executed, approvalPage }, c.get("caller"), { elicitation: false })
      // JSON responses rather than an SSE stream: every answer is complete when handleRequest resolves,
      // so the server can be closed at once.
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: maxBodyBytes,
      })
      const request = c.req.raw
      const parsedBody = await readJsonBody(c.req)
      // A client that hangs up cancels its running script: closing the transport aborts the handlers in flight. Their
      // answers are then never sent, so handleRequest would never settle: the request ends at the hang-up instead,
      // with an answer only the request log reads.
      const gone = () => {
        c.set("errorCode", "aborted")
        const error = { code: ErrorCode.ConnectionClosed, message: "the client closed the connection" }
        return Response.json({ jsonrpc: "2.0", error, id: null })
      }
      let hungUp: (answer: Response) => void = () => {}
      const goneAway = new Promise<Response>((resolve) => (hungUp = resolve))
      const hangUp = () => {
        void transport.close()
        hungUp(gone())
      }
      request.signal.addEventListener("abort", hangUp, { once: true })
      try {
        // gone before its body was read: nothing is run for it
        if (request.signal.aborted) return gone()
        await server.connect(transport)
        return await Promise.race([transport.handleRequest(request, { parsedBody }), goneAway])
      } finally {
        request.signal.removeEventListener("abort", hangUp)
        await closeServed(server)
      }
    },
  })
  .route({
    method: "get",
    path: "/mcp",
    scope: null,
    jsonRpc: true,
    operationId: "mcpGet",
    tag: "mcp",
    summary: "Not served: the endpoint is stateless (no standalone stream, no session to end)",
    responses: notServed,
    handler: methodNotAllowed,
  })
  .route({
    method: "delete",
    path: "/mcp",
    scope: null,
    jsonRpc: true,
    operationId: "mcpDelete",
    tag: "mcp",
    summary: "Not served: the endpoint is stateless (no standalone stream, no session to end)",
    responses: notServed,
    handler: methodNotAllowed,
  })
