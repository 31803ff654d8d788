/**
 * /v1/keys: API keys over HTTP, for a host whose operator has no command line beside its catalog (a Worker on
 * D1). Admin only (../scopes.ts). Served only by a server that checks keys: on one that does not (a loopback
 * server without keys, where every caller is admin) each request is 403, because a key made there would not be
 * checked there, and any local process could make one that a keyed server over the same catalog would honour.
 */
import { Hono } from "hono"
import { Forbidden, NotFound } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { jsonBody } from "../validate.js"
import { createKeyRequest } from "../wire/keys.js"
import type { KeyCreatedBody, KeysBody } from "../wire/keys.js"
import { keyViewOf as viewOf } from "../wire/key-views.js"

/** What a server that checks no key answers on /v1/keys; `hint` is the host's own way to manage keys, if any. */
export const keysNotCheckedMessage = (hint?: string) =>
  "this server does not check API keys (every caller is admin), so it does not manage them over HTTP: a key made here would not be checked here. " +
  `A server that requires keys manages them with /v1/keys and an admin key.${hint ? ` ${hint}` : ""}`

export const keyRoutes = ({ keys }: AppServices, hint?: string) =>
  new Hono<AppEnv>()
    // before any body is read, so the answer does not depend on what was sent
    .use("*", async (c, next) =>
      keys ? next() : sendError(c, new Forbidden({ message: keysNotCheckedMessage(hint) })),
    )
    .post("/", jsonBody(createKeyRequest), async (c) => {
      const { name, scopes } = c.req.valid("json")
      // keys is set: the middleware above answered otherwise
      const { key: secret, ...created } = await keys!.create(name, scopes)
      return c.json({ key: viewOf({ ...created, revokedAt: null }), secret } satisfies KeyCreatedBody, 201)
    })
    .get("/", async (c) => c.json({ keys: (await keys!.list()).map(viewOf) } satisfies KeysBody))
    // revoking a revoked key is no error (204 again; it keeps its first revocation's time): a retried DELETE
    // succeeds. Only an id that was never a key is 404.
    .delete("/:id", async (c) => {
      const id = c.req.param("id")
      if (!(await keys!.revoke(id))) return sendError(c, new NotFound({ message: `no key "${id}"` }))
      return c.body(null, 204)
    })
