/** The hono app: /healthz and /readyz, the /v1 routes, the MCP endpoint at /mcp. Runtime-neutral: no Node APIs, so it serves on Node and on Workers. */
import { Hono } from "hono"
import { internalError, isDatabaseFault } from "@switchboard/core"
import { DEFAULT_MAX_BODY_BYTES, checkMaxBodyBytes, limitBody } from "./body-limit.js"
import { DEFAULT_MAX_DOWNLOADS_PER_KEY, downloadSlots } from "./download-slots.js"
import { errorResponse } from "./http-errors.js"
import { requestGuard } from "./request-guard.js"
import { logRequests } from "./request-log.js"
import type { RequestLog } from "./request-log.js"
import { authenticate } from "./require-key.js"
import { checkScope } from "./scopes.js"
import type { AppEnv } from "./env.js"
import type { AppServices } from "./app-services.js"
import { openApiDocument } from "./openapi/document.js"
import type { OpenApiDocument } from "./openapi/document.js"
import { registerRoutes } from "./routes/all-routes.js"
import { serveConsole } from "./console-assets.js"
import { checkPublicUrl } from "./console-links.js"
import type { ConsoleAssets } from "./console-assets.js"

export interface AppOptions {
  /**
   * The Host header values this server answers to, each `host` (any port) or `host:port`; a bare IPv6
   * address such as "::1" may be given unbracketed. When set, a request naming any other Host is 403
   * `forbidden_host`: this is what stops DNS rebinding. A host sets it when it listens on loopback without
   * keys. It leaves it unset when keys are required, because a rebound page has no key, and when it listens
   * on every address (0.0.0.0, ::), where it cannot know every name it is reached by.
   */
  allowedHosts?: readonly string[]
  /** The largest request body on /v1 and /mcp, in bytes (default 10 MiB); a larger one is 413 `body_too_large`. */
  maxBodyBytes?: number
  /**
   * Downloads of stored output (GET /v1/executions/:id/output, no query) one key may have in progress at once
   * (default 8); past it 429 `too_many_downloads`. A server without keys counts all its callers as one. The count
   * lives in the app: a host that builds an app per request (the Worker) keeps none.
   */
  maxDownloadsPerKey?: number
  /**
   * One sentence on how this host's operator manages API keys besides /v1/keys, such as the Node host's command
   * line (`On the host: switchboard keys create …`). It ends the 401's message and the refusal of /v1/keys on a
   * server without keys. Without it they name only /v1/keys, which is true on every host.
   */
  keysHint?: string
  /** Called once per request, after its answer is made, with what a request log line holds (./request-log.ts). */
  requestLog?: RequestLog
  /**
   * `GET /metrics` answers with what this returns (the Node host: Prometheus text). Admin only when keys are on
   * (./routes/meta.ts). Unset: no such route. It is not in the OpenAPI document, which describes the JSON API every host
   * serves.
   */
  metrics?: () => Promise<{ contentType: string; body: string }>
  /**
   * The base URL people reach this server at (`https://switchboard.example.com`) when it is not the one a request
   * arrives at (behind a proxy): the OAuth callback a login sends the browser back to (`<publicUrl>/v1/oauth/callback`)
   * and the console's links in paused answers are built from it. Unset: the origin each request reached. An absolute
   * http(s) URL with no query or fragment (./console-links.ts `checkPublicUrl`); anything else throws here.
   */
  publicUrl?: string
  /** The web console's built files (./console-assets.ts), served at `/`; unset, no console. */
  console?: ConsoleAssets
}

/** A body read that failed because the client hung up (Node: `Error: aborted`, code ECONNRESET). */
const clientWentAway = (cause: unknown, request: Request) =>
  request.signal.aborted ||
  (typeof cause === "object" && cause !== null && (cause as { code?: unknown }).code === "ECONNRESET")

export type { AppServices }

export const createApp = (services: AppServices, options: AppOptions = {}) => {
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl)
  if (publicUrl && !publicUrl.ok) throw new Error(publicUrl.message)
  // built at its first request: a host that never serves it never pays for the JSON Schema conversion
  let document: OpenApiDocument | undefined
  const downloads = downloadSlots(options.maxDownloadsPerKey ?? DEFAULT_MAX_DOWNLOADS_PER_KEY)
  const base = new Hono<AppEnv>()
  // first: it times the whole request and sees every answer, a refused key's too
  if (options.requestLog) base.use("*", logRequests(options.requestLog))
  // the console's static files: no data in them, so no key; the Host check still applies (DNS rebinding)
  if (options.console)
    base.use("*", serveConsole(options.console, requestGuard({ allowedHosts: options.allowedHosts })))
  const routed = base
    // the key first: a caller without one learns only that it needs one, and no body of theirs is buffered;
    // then its scope, which each route's definition names (./scopes.ts)
    .use("*", authenticate(services.keys, options.keysHint))
    .use("*", checkScope)
    .use("*", requestGuard({ allowedHosts: options.allowedHosts }))
    .use("/v1/*", limitBody(maxBodyBytes))
    .use("/mcp/*", limitBody(maxBodyBytes))
  const app = registerRoutes(routed, services, {
    maxBodyBytes,
    downloads,
    keysHint: options.keysHint,
    metrics: options.metrics,
    publicUrl: publicUrl?.url,
    openApi: () => (document ??= openApiDocument(services.sources.kinds)),
    console: options.console !== undefined,
  })
  app.notFound((c) => errorResponse(c, "not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`, 404))
  app.onError((cause, c) => {
    const where = `${c.req.method} ${new URL(c.req.url).pathname}`
    if (clientWentAway(cause, c.req.raw)) {
      // the caller's mistake or its network's, never our defect: one line, and nobody is left to answer
      services.logger.info("request aborted by the client before its body arrived", { request: where })
      return errorResponse(c, "client_closed_request", "the connection closed before the request body arrived", 400)
    }
    // a database that cannot be used (locked past the wait, its file deleted or replaced) is no defect of ours:
    // 503, with the fault's own message, which is safe to show (core's DatabaseFault), as /readyz says it
    if (isDatabaseFault(cause)) {
      services.logger.warn(`database unavailable in ${where}`, { reason: cause.message })
      return errorResponse(c, "database_unavailable", cause.message, 503)
    }
    const error = internalError(services.logger, where, cause)
    return errorResponse(c, "internal_error", error.message, 500)
  })
  return app
}

/** The app's routes as types: what the typed client (./client.ts) is checked against. */
export type App = ReturnType<typeof createApp>
