/**
 * One entry per request for a host's request log (the Node host writes each as a JSON line): the method, the
 * pattern of the route it matched (never the raw path, which holds ids), the status, the milliseconds until the
 * response was made, the caller's key id (never the key), and the execution id and the error code when the
 * route answered with them. The time ends when the handler returns its Response: a body still streaming is not
 * in it.
 */
import type { MiddlewareHandler } from "hono"
import type { AppEnv } from "./env.js"
import { matchedRoute } from "./matched-route.js"

/** A type, not an interface: a logger takes it as a record of fields. */
export type RequestLogEntry = {
  method: string
  /** the matched route's pattern (`/v1/executions/:id`); null when no route matched (404 `not_found`) */
  route: string | null
  status: number
  durationMs: number
  /** the execution the request ran or read */
  executionId?: string
  /** the id of the API key that made it; absent on a server without keys, or before a key was accepted */
  keyId?: string
  /** the `error.code` of the body, when the answer was an error (or an execution that failed) */
  errorCode?: string
}

export type RequestLog = (entry: RequestLogEntry) => void

export const logRequests =
  (log: RequestLog): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now()
    await next()
    const entry: RequestLogEntry = {
      method: c.req.method,
      route: matchedRoute(c),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    }
    const executionId = c.get("executionId")
    if (executionId !== undefined) entry.executionId = executionId
    const keyId = c.get("caller")?.keyId
    if (keyId) entry.keyId = keyId
    const errorCode = c.get("errorCode")
    if (errorCode !== undefined) entry.errorCode = errorCode
    log(entry)
  }
