/** The hono app: /healthz, the /v1 routes, the MCP endpoint at /mcp. Runtime-neutral: no Node APIs, so it serves on Node and on Workers. */
import { Hono } from "hono"
import type { ApiKeyService, CatalogStore, Executor, Logger, SourcesService } from "@switchboard/core"
import { internalError } from "@switchboard/core"
import { errorBody } from "./http-errors.js"
import { requireKey } from "./require-key.js"
import { mcpRoutes } from "./mcp/http.js"
import { executeRoutes } from "./routes/execute.js"
import { executionRoutes } from "./routes/executions.js"
import { sourceRoutes } from "./routes/sources.js"
import { describeRoutes, toolRoutes } from "./routes/tools.js"

export interface AppServices {
  sources: SourcesService
  executor: Executor
  store: CatalogStore
  logger: Logger
  /** when set, every route but /healthz needs a valid API key */
  keys?: Pick<ApiKeyService, "verify">
}

export const createApp = (services: AppServices) => {
  const app = new Hono()
  if (services.keys) app.use("*", requireKey(services.keys))
  app.get("/healthz", (c) => c.json({ ok: true }))
  app.route("/v1/sources", sourceRoutes(services))
  app.route("/v1/tools", toolRoutes(services))
  app.route("/v1/describe", describeRoutes(services))
  app.route("/v1", executeRoutes(services))
  app.route("/v1/executions", executionRoutes(services))
  app.route("/mcp", mcpRoutes(services))
  app.notFound((c) => c.json(errorBody("not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404))
  app.onError((cause, c) => {
    const error = internalError(services.logger, `${c.req.method} ${new URL(c.req.url).pathname}`, cause)
    return c.json(errorBody("internal_error", error.message), 500)
  })
  return app
}
