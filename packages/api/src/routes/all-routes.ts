/**
 * Every route group, in the order the app registers them. The app, the scope table (../scopes.ts) and the OpenAPI
 * document (../openapi/document.ts) all read this one list.
 */
import type { Hono } from "hono"
import type { Schema } from "hono/types"
import type { UnionToIntersection } from "hono/utils/types"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { mcpRoutes } from "../mcp/http.js"
import { approvalRoutes } from "./approvals.js"
import { executeRoutes } from "./execute.js"
import { executionRoutes } from "./executions.js"
import { keyRoutes } from "./keys.js"
import { metaRoutes, metricsRoutes } from "./meta.js"
import type { RouteOptions, SchemaOf } from "./route-group.js"
import type { RouteSpec } from "./route-spec.js"
import { sourceRoutes } from "./sources.js"
import { sourceLoginRoutes } from "./source-login.js"
import { toolRoutes } from "./tools.js"

const groups = [
  metaRoutes,
  sourceRoutes,
  sourceLoginRoutes,
  toolRoutes,
  executeRoutes,
  executionRoutes,
  keyRoutes,
  approvalRoutes,
  mcpRoutes,
  metricsRoutes,
] as const

export const allRoutes: readonly RouteSpec[] = groups.flatMap((group) => group.routes)

/** what the typed client (../client.ts) knows: /metrics is the host's, when it keeps metrics, and no JSON */
type RoutesSchema = UnionToIntersection<SchemaOf<Exclude<(typeof groups)[number], typeof metricsRoutes>>>

/** Registers every group on `app`, whose type gains every route's. */
export const registerRoutes = <S extends Schema>(
  app: Hono<AppEnv, S>,
  services: AppServices,
  options: RouteOptions,
): Hono<AppEnv, S & RoutesSchema> => {
  for (const group of groups) group.register(app as unknown as Hono<AppEnv>, services, options)
  return app as unknown as Hono<AppEnv, S & RoutesSchema>
}
