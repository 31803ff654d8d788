/**
 * /v1/keys: API keys over HTTP, for a host whose operator has no command line beside its catalog (a Worker on
 * D1). Admin only: a key that could make keys could make itself admin. Served only by a server that checks keys:
 * on one that does not (a loopback server without keys, where every caller is admin) each request is 403, because
 * a key made there would not be checked there, and any local process could make one that a keyed server over the
 * same catalog would honour.
 */
import { Forbidden, NotFound } from "@switchboard/core"
import { sendError } from "../http-errors.js"
import { createKeyRequest, keyCreatedBody, keysBody } from "../wire/keys.js"
import type { KeyCreatedBody, KeysBody } from "../wire/keys.js"
import { keyViewOf as viewOf } from "../wire/key-views.js"
import { routeGroup } from "./route-group.js"

/** What a server that checks no key answers on /v1/keys; `hint` is the host's own way to manage keys, if any. */
export const keysNotCheckedMessage = (hint?: string) =>
  "this server does not check API keys (every caller is admin), so it does not manage them over HTTP: a key made here would not be checked here. " +
  `A server that requires keys manages them with /v1/keys and an admin key.${hint ? ` ${hint}` : ""}`

/** What every /v1/keys operation says of where it is served. */
const served =
  "Only on a server that requires keys; one that does not (a Node server on loopback without --require-key, where every caller is admin) " +
  "answers 403 `forbidden`, since a key made there would not be checked there. Needs `admin`: a key that could make keys could make itself admin."

export const keyRoutes = routeGroup(({ keys }, { keysHint }) => ({ keys, hint: keysHint }))
  // before any body is read, so the answer does not depend on what was sent
  .use(
    "/v1/keys/*",
    ({ keys, hint }) =>
      async (c, next) =>
        keys ? next() : sendError(c, new Forbidden({ message: keysNotCheckedMessage(hint) })),
  )
  .route({
    method: "post",
    path: "/v1/keys",
    scope: "admin",
    operationId: "createKey",
    tag: "keys",
    summary: "Create an API key; its secret is in this answer and never again",
    description: served,
    body: createKeyRequest,
    responses: { 201: { description: "created", json: keyCreatedBody } },
    handler: async (c, { keys }) => {
      const { name, scopes } = c.req.valid("json")
      // keys is set: the middleware above answered otherwise
      const { key: secret, ...created } = await keys!.create(name, scopes)
      return c.json({ key: viewOf({ ...created, revokedAt: null }), secret } satisfies KeyCreatedBody, 201)
    },
  })
  .route({
    method: "get",
    path: "/v1/keys",
    scope: "admin",
    operationId: "listKeys",
    tag: "keys",
    summary: "Every API key, revoked ones too, oldest first (never a secret or a hash)",
    description: served,
    responses: { 200: { description: "the keys", json: keysBody } },
    handler: async (c, { keys }) => c.json({ keys: (await keys!.list()).map(viewOf) } satisfies KeysBody),
  })
  .route({
    method: "delete",
    path: "/v1/keys/:id",
    scope: "admin",
    operationId: "revokeKey",
    tag: "keys",
    summary: "Revoke an API key: from now on it is answered 401",
    description:
      `${served} Revoking a revoked key is no error: 204 again, and the key keeps its first revocation's time. ` +
      "Revoking the key that sends the request is allowed; keep another admin key.",
    params: { id: "the key's `id`, as created or listed" },
    responses: { 204: { description: "revoked (or already revoked)" } },
    errors: ["NotFound"],
    // a retried DELETE succeeds: only an id that was never a key is 404
    handler: async (c, { keys }) => {
      const id = c.req.param("id")
      if (!(await keys!.revoke(id))) return sendError(c, new NotFound({ message: `no key "${id}"` }))
      return c.body(null, 204)
    },
  })
