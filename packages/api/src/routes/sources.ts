import { Hono } from "hono"
import type { z } from "zod"
import type { sourceFields } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { checkedByService } from "../validate.js"
import type { SourceBody, SourcesBody } from "../wire/sources.js"

/** namespace, kind, and the kind's own fields */
type SourceRequest = z.input<ReturnType<typeof sourceFields>>
/** the fields a PATCH replaces, which the source's kind decides */
type SourcePatchRequest = Record<string, unknown>

export const sourceRoutes = ({ sources }: AppServices) =>
  new Hono<AppEnv>()
    .post("/", checkedByService<SourceRequest>(), async (c) => {
      const added = await sources.add(c.req.valid("json"))
      return added.ok ? c.json({ source: added.value } satisfies SourceBody, 201) : sendError(c, added.error)
    })
    .get("/", async (c) => c.json({ sources: await sources.list() } satisfies SourcesBody))
    .post("/:namespace/sync", async (c) => {
      const synced = await sources.sync(c.req.param("namespace"))
      return synced.ok ? c.json({ source: synced.value } satisfies SourceBody) : sendError(c, synced.error)
    })
    .patch("/:namespace", checkedByService<SourcePatchRequest>(), async (c) => {
      const updated = await sources.update(c.req.param("namespace"), c.req.valid("json"))
      return updated.ok ? c.json({ source: updated.value } satisfies SourceBody) : sendError(c, updated.error)
    })
    .delete("/:namespace", async (c) => {
      const removed = await sources.remove(c.req.param("namespace"))
      return removed.ok ? c.body(null, 204) : sendError(c, removed.error)
    })
