/**
 * /v1/sources: the MCP servers (or other kinds) whose tools make up the catalog. A source's fields depend on its
 * kind's plugin, so the sources service checks each body; a read key may list them, every change needs `admin`
 * (a stdio source runs a command on the host).
 */
import type { z } from "zod"
import type { sourceFields } from "@switchboard/core"
import { runForRequest } from "../http-errors.js"
import { sourceBody, sourcePatchBody, sourcesBody } from "../wire/sources.js"
import type { SourceBody, SourcePatchBody, SourcesBody } from "../wire/sources.js"
import { routeGroup } from "./route-group.js"
import { checkedByService } from "./route-spec.js"

/** namespace, kind, and the kind's own fields */
type SourceRequest = z.input<ReturnType<typeof sourceFields>>
/** the fields a PATCH replaces, which the source's kind decides */
type SourcePatchRequest = Record<string, unknown>

const params = { namespace: "the source's namespace" }

export const sourceRoutes = routeGroup(({ sources }) => ({ sources }))
  .route({
    method: "post",
    path: "/v1/sources",
    scope: "admin",
    operationId: "addSource",
    tag: "sources",
    summary: "Add a source and sync its tools at once; a source that cannot be reached is not kept",
    body: checkedByService<SourceRequest>("SourceInput"),
    responses: { 201: { description: "added", json: sourceBody } },
    errors: ["Conflict", "UpstreamFailed"],
    handler: (c, { sources }) =>
      runForRequest(c, sources.add(c.req.valid("json")), (source) => c.json({ source } satisfies SourceBody, 201)),
  })
  .route({
    method: "get",
    path: "/v1/sources",
    // a read key sees less of each config than an admin (SourcePlugin.redactConfig)
    scope: "read",
    operationId: "listSources",
    tag: "sources",
    summary: "Every source",
    responses: { 200: { description: "the sources", json: sourcesBody } },
    handler: async (c, { sources }) => c.json({ sources: await sources.list(c.get("caller")) } satisfies SourcesBody),
  })
  .route({
    method: "get",
    path: "/v1/sources/:namespace",
    scope: "admin",
    operationId: "getSource",
    tag: "sources",
    summary: "One source, with its OAuth login (`auth`) for a source that logs in",
    params,
    responses: { 200: { description: "the source", json: sourceBody } },
    errors: ["NotFound"],
    handler: (c, { sources }) =>
      runForRequest(c, sources.get(c.req.param("namespace")), (source) => c.json({ source } satisfies SourceBody)),
  })
  .route({
    method: "post",
    path: "/v1/sources/:namespace/sync",
    scope: "admin",
    operationId: "syncSource",
    tag: "sources",
    summary: "Re-sync a source's tools now",
    params,
    responses: { 200: { description: "synced", json: sourceBody } },
    errors: ["NotFound", "SecretsUnreadable", "UpstreamFailed"],
    handler: (c, { sources }) =>
      runForRequest(c, sources.sync(c.req.param("namespace")), (source) => c.json({ source } satisfies SourceBody)),
  })
  .route({
    method: "patch",
    path: "/v1/sources/:namespace",
    scope: "admin",
    operationId: "updateSource",
    tag: "sources",
    summary: "Replace a source's secrets or OAuth settings (a key rotation without delete and re-add), then re-sync it",
    description:
      "Each field given replaces the stored one whole (a map is not merged): `transport.env` or `transport.args` of a stdio source; " +
      "`transport.headers`, `transport.url` or `auth` (its OAuth settings; `{}` removes them) of an http source; `auth` or `headers` of an " +
      "openapi source. " +
      "A `transport.url` at another origin drops the stored headers and OAuth client secret, and new `transport.args` drop the stored env, " +
      "unless the same PATCH sends them again: a secret nobody can read is never sent to a destination of the caller's choosing. " +
      "A change of the OAuth client, grant, authorization server or resource drops the source's login (`oauth.tokens`): it then needs a new " +
      "one (a client-credentials source gets a new token at once); a new client secret alone keeps it. The answer's `dropped` names them. " +
      "The result is checked as an added source is, and tried before it is stored: a refusal (403 `source_disabled`, `code_loading_env`, " +
      "`private_address`) changes nothing. A re-sync that fails keeps the new config and is reported in the answer's `syncError`.",
    params,
    body: checkedByService<SourcePatchRequest>("SourcePatch"),
    responses: {
      200: {
        description: "replaced and re-synced (see `status` and `syncError`), and what was dropped",
        json: sourcePatchBody,
      },
    },
    errors: ["NotFound", "SecretsUnreadable"],
    handler: (c, { sources }) =>
      runForRequest(c, sources.update(c.req.param("namespace"), c.req.valid("json")), (update) =>
        c.json(update satisfies SourcePatchBody),
      ),
  })
  .route({
    method: "delete",
    path: "/v1/sources/:namespace",
    scope: "admin",
    operationId: "removeSource",
    tag: "sources",
    summary: "Remove a source; its tools go with it",
    params,
    responses: { 204: { description: "removed" } },
    errors: ["NotFound"],
    handler: (c, { sources }) => runForRequest(c, sources.remove(c.req.param("namespace")), () => c.body(null, 204)),
  })
