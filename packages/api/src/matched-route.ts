/**
 * The pattern of the route a request matched (`/v1/executions/:id`), middleware aside, or null when no route
 * matched (it goes on to the 404). Worked out at most once per request, and only when asked: scopes.ts asks only
 * of a refusal, the request log (when a host keeps one) of every request.
 */
import type { Context } from "hono"
import { matchedRoutes } from "hono/route"

const known = new WeakMap<Context, string | null>()

/** The last route that matched, middleware aside (`use` registers for every method, as `ALL`). */
export const matchedRoute = (c: Context): string | null => {
  const memo = known.get(c)
  if (memo !== undefined) return memo
  const routes = matchedRoutes(c)
  let route: string | null = null
  for (let i = routes.length - 1; i >= 0; i--)
    if (routes[i]!.method !== "ALL") {
      route = routes[i]!.path
      break
    }
  known.set(c, route)
  return route
}
