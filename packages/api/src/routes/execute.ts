import { Hono } from "hono"
import type { TypedResponse } from "hono"
import { executeRequest, isPausedResponse, isServiceError } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { jsonBody } from "../validate.js"
import { executeBodyText } from "../wire/execute-body-text.js"
import type { ExecuteBody } from "../wire/execute.js"
import type { ExecutePausedBody } from "../wire/approvals.js"

export const executeRoutes = ({ executor }: AppServices) =>
  new Hono<AppEnv>().post("/execute", jsonBody(executeRequest), async (c) => {
    // the plain path (no fiber: it is the hot one); the request's signal aborts the run when the client hangs up,
    // and Overloaded, the typed admission error, is 429 with Retry-After
    const response = await executor.run(c.req.valid("json"), c.req.raw.signal, c.get("caller"))
    if (isServiceError(response)) return sendError(c, response)
    // for the request log
    c.set("executionId", response.executionId)
    // paused before a call that needs a person: accepted, not done (GET /v1/executions/{id} gives the end)
    if (isPausedResponse(response)) return c.json(response satisfies ExecutePausedBody, 202)
    if (!response.ok) c.set("errorCode", response.error.code)
    // a result that already is JSON text is written as it is: encoding a large value again stalls the server
    if (response.ok && response.resultJson !== undefined)
      return c.body(executeBodyText(response, response.resultJson), 200, {
        "content-type": "application/json",
      }) as unknown as TypedResponse<ExecuteBody, 200, "json">
    return c.json(response satisfies ExecuteBody)
  })
