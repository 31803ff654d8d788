/**
 * Which scope each route and each MCP tool needs: the one table every request goes through (DESIGN §8; the
 * scopes themselves are core's, auth/scopes.ts). A route the table does not name needs `admin`, so a route
 * added without a rule is closed, not open. A request that matches no route at all passes on to the 404.
 */
import type { MiddlewareHandler } from "hono"
import { Forbidden, hasScope, missingScopeMessage } from "@switchboard/core"
import type { Caller, Scope } from "@switchboard/core"
import type { AppEnv } from "./env.js"
import { sendError } from "./http-errors.js"
import { matchedRoute } from "./matched-route.js"

export interface RouteScope {
  /** any method when absent; HEAD is answered by GET routes and counts as GET */
  method?: string
  /** the path itself and everything under it */
  path: string
  /** null: no scope beyond a live key (and /healthz and /readyz need not even that) */
  scope: Scope | null
}

/** First match wins. */
export const routeScopes: readonly RouteScope[] = [
  { method: "GET", path: "/healthz", scope: null },
  { method: "GET", path: "/readyz", scope: null },
  // the API's description is no secret, and every key needs it to learn the API
  { method: "GET", path: "/v1/openapi.json", scope: null },
  { method: "GET", path: "/v1/sources", scope: "read" },
  // adding, changing, syncing or removing a source (a stdio source runs a command on the host)
  { path: "/v1/sources", scope: "admin" },
  { method: "GET", path: "/v1/tools", scope: "read" },
  { method: "POST", path: "/v1/describe", scope: "execute" },
  { method: "POST", path: "/v1/execute", scope: "execute" },
  // and only the key's own, unless admin (routes/executions.ts, through core's readExecutionAs)
  { method: "GET", path: "/v1/executions", scope: "read" },
  // making, listing and revoking keys: a key that could make keys could make itself admin. Named, though the
  // default would close it too, so that nobody has to reason from the default (routes/keys.ts)
  { path: "/v1/keys", scope: "admin" },
  // the rules, and deciding paused calls: an agent's execute key must never approve its own calls. Named for the
  // same reason as /v1/keys
  { path: "/v1/policies", scope: "admin" },
  { path: "/v1/approvals", scope: "admin" },
  // counts of everything the server did, sources by name included. Named for the same reason as /v1/keys
  { method: "GET", path: "/metrics", scope: "admin" },
  // each MCP tool checks its own scope (mcpToolScopes)
  { path: "/mcp", scope: null },
]

/** What a route the table does not name needs. */
export const DEFAULT_ROUTE_SCOPE: Scope = "admin"

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

export const requiredScope = (method: string, path: string): Scope | null => {
  const asked = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase()
  const rule = routeScopes.find((r) => (r.method === undefined || r.method === asked) && under(path, r.path))
  return rule ? rule.scope : DEFAULT_ROUTE_SCOPE
}

/** The scope each MCP tool needs; tools/list shows a key only the tools it may call. */
export const mcpToolScopes: Readonly<Record<string, Scope>> = {
  execute: "execute",
  // and only the key's own executions, unless admin (mcp/resume-tool.ts, through core's readExecutionAs)
  resume: "execute",
  describe: "execute",
  read_output: "read",
  grep_output: "read",
}

/** What a caller without any key has (a keyed server before authentication): nothing. */
const NOBODY: Caller = { keyId: null, scope: null }

/** 403 `forbidden` naming the scope, when the key lacks the scope its route needs. */
export const checkScope: MiddlewareHandler<AppEnv> = async (c, next) => {
  const needed = requiredScope(c.req.method, c.req.path)
  if (needed === null) return next()
  const caller = c.get("caller") ?? NOBODY
  if (hasScope(caller, needed)) return next()
  // no route answers this request: let it reach the 404 whatever the key, so a key learns nothing more. Asked
  // only of a refusal: matching the routes again costs every request microseconds (once worked out, the request
  // log reuses it).
  if (matchedRoute(c) === null) return next()
  return sendError(c, new Forbidden({ message: missingScopeMessage("this route", needed, caller) }))
}
