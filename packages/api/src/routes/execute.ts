import { Hono } from "hono"
import { Overloaded, RunErrorCodes, executeRequest } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { jsonBody } from "../validate.js"
import type { ExecuteBody } from "../wire/execute.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono<AppEnv>().post("/execute", jsonBody(executeRequest), async (c) => {
    const response = await executor.execute(c.req.valid("json"), c.req.raw.signal, c.get("caller"))
    if (!response.ok && response.error.code === RunErrorCodes.overloaded) {
      return sendError(
        c,
        new Overloaded({ message: response.error.message, retryAfterSeconds: response.error.retryAfterSeconds ?? 1 }),
      )
    }
    return c.json(response satisfies ExecuteBody)
  })
