import { Hono } from "hono"
import { NotFound } from "@switchboard/core"
import type { AppServices } from "../app.js"
import { readJson, sendError } from "../http-errors.js"

export const executeRoutes = ({ executor, store }: AppServices) =>
  new Hono()
    .post("/execute", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      const request = executor.parse(body.body)
      if (!request.ok) return sendError(c, request.error)
      return c.json(await executor.execute(request.value, c.req.raw.signal))
    })
    .get("/executions/:id", async (c) => {
      const execution = await store.getExecution(c.req.param("id"))
      return execution ? c.json({ execution }) : sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
    })
