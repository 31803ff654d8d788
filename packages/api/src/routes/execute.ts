import { Hono } from "hono"
import type { AppServices } from "../app.js"
import type { AppEnv } from "../env.js"
import { readJson, runForRequest, sendError } from "../http-errors.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono<AppEnv>().post("/execute", async (c) => {
    const body = await readJson(c)
    if (!body.ok) return body.response
    const request = executor.parse(body.body)
    if (!request.ok) return sendError(c, request.error)
    // the request's signal interrupts the execution when the client hangs up; Overloaded is 429 with Retry-After
    return runForRequest(c, executor.execute(request.value, c.get("caller")), (response) => c.json(response))
  })
