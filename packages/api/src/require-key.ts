/**
 * Who is asking. When the host passes `keys` (it does once it listens beyond loopback: ARCHITECTURE.md: safety),
 * every route but /healthz and /readyz needs `Authorization: Bearer <key>`; a missing or wrong key is 401, the same
 * answer for both. The live key becomes the request's `caller` (its id and scope), which ./scopes.ts checks. Without
 * `keys` every request is `OPEN_CALLER`: admin, with no key.
 */
import type { MiddlewareHandler } from "hono"
import * as Auth from "@switchboard/core/auth"
import type { AppEnv } from "./env.js"
import { errorResponse } from "./http-errors.js"
import { PROBE_PATHS } from "./probes.js"
import { OAUTH_CALLBACK_PATH } from "./routes/source-login.js"

/**
 * The 401's text. True on every host: keys are made over HTTP with an admin key; `hint` is the host's own way
 * besides (the Node host's command line), which is also how the first admin key is made.
 */
export const unauthorizedMessage = (hint?: string) =>
  "this server needs an API key: send Authorization: Bearer <key>. An admin key creates keys with POST /v1/keys." +
  (hint ? ` ${hint}` : "")

export const authenticate =
  (keys: Pick<Auth.ApiKeyService, "verify"> | undefined, hint?: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!keys) {
      c.set("caller", Auth.OPEN_CALLER)
      return next()
    }
    // an authorization server's redirect, in a person's browser, carries no key: its state is what binds it
    if (PROBE_PATHS.has(c.req.path) || c.req.path === OAUTH_CALLBACK_PATH) return next()
    const header = c.req.header("authorization") ?? ""
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1]
    const key = token ? await keys.verify(token) : null
    if (!key) {
      c.header("WWW-Authenticate", 'Bearer realm="switchboard"')
      return errorResponse(c, "unauthorized", unauthorizedMessage(hint), 401)
    }
    c.set("caller", Auth.callerOf(key))
    return next()
  }
