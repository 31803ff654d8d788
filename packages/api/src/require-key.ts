/**
 * Every route but /healthz needs `Authorization: Bearer <key>` when the host asks for keys (it does once it
 * listens beyond loopback: DESIGN §8). A missing or wrong key is 401, the same answer for both.
 */
import type { MiddlewareHandler } from "hono"
import type { ApiKeyService } from "@switchboard/core"
import { errorBody } from "./http-errors.js"

export const requireKey = (keys: Pick<ApiKeyService, "verify">): MiddlewareHandler => async (c, next) => {
  if (c.req.path === "/healthz") return next()
  const header = c.req.header("authorization") ?? ""
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1]
  if (!token || !(await keys.verify(token))) {
    c.header("WWW-Authenticate", 'Bearer realm="switchboard"')
    return c.json(errorBody("unauthorized", "this server needs an API key: send Authorization: Bearer <key> (create one with `switchboard keys create <name>`)"), 401)
  }
  return next()
}
