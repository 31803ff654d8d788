import { Hono } from "hono"
import type { AppServices } from "../app.js"
import type { AppEnv } from "../env.js"
import { readJson, runForRequest } from "../http-errors.js"

export const sourceRoutes = ({ sources }: AppServices) =>
  new Hono<AppEnv>()
    .post("/", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      return runForRequest(c, sources.add(body.body), (source) => c.json({ source }, 201))
    })
    .get("/", async (c) => c.json({ sources: await sources.list() }))
    .post("/:namespace/sync", (c) =>
      runForRequest(c, sources.sync(c.req.param("namespace")), (source) => c.json({ source })),
    )
    .patch("/:namespace", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      return runForRequest(c, sources.update(c.req.param("namespace"), body.body), (source) => c.json({ source }))
    })
    .delete("/:namespace", (c) => runForRequest(c, sources.remove(c.req.param("namespace")), () => c.body(null, 204)))
