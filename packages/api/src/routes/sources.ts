import { Hono } from "hono"
import type { AppServices } from "../app.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { readJson } from "../validate.js"
import type { SourceBody, SourcesBody } from "../wire/sources.js"

export const sourceRoutes = ({ sources }: AppServices) =>
  new Hono<AppEnv>()
    .post("/", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      const added = await sources.add(body.body)
      return added.ok ? c.json({ source: added.value } satisfies SourceBody, 201) : sendError(c, added.error)
    })
    .get("/", async (c) => c.json({ sources: await sources.list() } satisfies SourcesBody))
    .post("/:namespace/sync", async (c) => {
      const synced = await sources.sync(c.req.param("namespace"))
      return synced.ok ? c.json({ source: synced.value } satisfies SourceBody) : sendError(c, synced.error)
    })
    .patch("/:namespace", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      const updated = await sources.update(c.req.param("namespace"), body.body)
      return updated.ok ? c.json({ source: updated.value } satisfies SourceBody) : sendError(c, updated.error)
    })
    .delete("/:namespace", async (c) => {
      const removed = await sources.remove(c.req.param("namespace"))
      return removed.ok ? c.body(null, 204) : sendError(c, removed.error)
    })
