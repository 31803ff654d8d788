import { Hono } from "hono"
import { Overloaded, RunErrorCodes } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { readJson, sendError } from "../http-errors.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono<AppEnv>().post("/execute", async (c) => {
    const body = await readJson(c)
    if (!body.ok) return body.response
    const request = executor.parse(body.body)
    if (!request.ok) return sendError(c, request.error)
    const response = await executor.execute(request.value, c.req.raw.signal, c.get("caller"))
    if (!response.ok && response.error.code === RunErrorCodes.overloaded) {
      return sendError(
        c,
        new Overloaded({ message: response.error.message, retryAfterSeconds: response.error.retryAfterSeconds ?? 1 }),
      )
    }
    return c.json(response)
  })
