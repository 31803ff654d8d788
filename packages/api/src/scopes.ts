/**
 * Which scope each route needs: the table every request goes through, derived from the routes' own definitions
 * (./routes/all-routes.ts), which also write each operation's `security` in the OpenAPI document. The scopes
 * themselves are core's (auth/scopes.ts). A request that matches no route needs `admin`, and if its key lacks it,
 * passes on to the 404 all the same.
 */
import type { MiddlewareHandler } from "hono"
import * as Auth from "@switchboard/core/auth"
import { Forbidden } from "@switchboard/core"
import type { AppEnv } from "./env.js"
import { sendError } from "./http-errors.js"
import { matchedRoute } from "./matched-route.js"
import { allRoutes } from "./routes/all-routes.js"

export { mcpToolScopes } from "./mcp/tool-scopes.js"

export interface RouteScope {
  /** upper case; HEAD is answered by GET routes and counts as GET */
  method: string
  /** hono's pattern: `/v1/executions/:id` */
  path: string
  /** null: no scope beyond a live key (and /healthz and /readyz need not even that) */
  scope: Auth.Scope | null
}

export const routeScopes: readonly RouteScope[] = allRoutes.map(({ method, path, scope }) => ({
  method: method.toUpperCase(),
  path,
  scope,
}))

/** What a request that matches no route needs. */
export const DEFAULT_ROUTE_SCOPE: Auth.Scope = "admin"

/** the routes without path parameters, by method, then path: most requests are answered from here */
const fixed = new Map<string, Map<string, Auth.Scope | null>>()
for (const { method, path, scope } of routeScopes)
  if (!path.includes(":")) fixed.set(method, (fixed.get(method) ?? new Map()).set(path, scope))
/** a path parameter matches one segment, as in hono's router */
const patterned = routeScopes
  .filter((r) => r.path.includes(":"))
  .map((r) => ({ ...r, pattern: new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+")}$`) }))

export const requiredScope = (method: string, path: string): Auth.Scope | null => {
  const upper = method.toUpperCase()
  const asked = upper === "HEAD" ? "GET" : upper
  const scope = fixed.get(asked)?.get(path)
  if (scope !== undefined) return scope
  for (const route of patterned) if (route.method === asked && route.pattern.test(path)) return route.scope
  return DEFAULT_ROUTE_SCOPE
}

/** What a caller without any key has (a keyed server before authentication): nothing. */
const NOBODY: Auth.Caller = { keyId: null, scope: null }

/** 403 `forbidden` naming the scope, when the key lacks the scope its route needs. */
export const checkScope: MiddlewareHandler<AppEnv> = async (c, next) => {
  const needed = requiredScope(c.req.method, c.req.path)
  if (needed === null) return next()
  const caller = c.get("caller") ?? NOBODY
  if (Auth.hasScope(caller, needed)) return next()
  // no route answers this request: let it reach the 404 whatever the key, so a key learns nothing more. Asked
  // only of a refusal: matching the routes again costs every request microseconds (once worked out, the request
  // log reuses it).
  if (matchedRoute(c) === null) return next()
  return sendError(c, new Forbidden({ message: Auth.missingScopeMessage("this route", needed, caller) }))
}
