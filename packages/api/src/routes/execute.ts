import { Hono } from "hono"
import { isServiceError } from "@switchboard/core"
import type { AppServices } from "../app.js"
import type { AppEnv } from "../env.js"
import { readJson, sendError } from "../http-errors.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono<AppEnv>().post("/execute", async (c) => {
    const body = await readJson(c)
    if (!body.ok) return body.response
    const request = executor.parse(body.body)
    if (!request.ok) return sendError(c, request.error)
    // the plain path (no fiber: it is the hot one); the request's signal aborts the run when the client hangs up,
    // and Overloaded, the typed admission error, is 429 with Retry-After
    const response = await executor.run(request.value, c.req.raw.signal, c.get("caller"))
    return isServiceError(response) ? sendError(c, response) : c.json(response)
  })
