import { Hono } from "hono"
import type { AppServices } from "../app.js"
import { readJson, sendError } from "../http-errors.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono()
    .post("/execute", async (c) => {
      const body = await readJson(c)
      if (!body.ok) return body.response
      const request = executor.parse(body.body)
      if (!request.ok) return sendError(c, request.error)
      return c.json(await executor.execute(request.value, c.req.raw.signal))
    })
