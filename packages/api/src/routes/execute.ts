/** POST /v1/execute: the hot path. The request's signal aborts the run when the client hangs up. */
import type { TypedResponse } from "hono"
import * as Executor from "@switchboard/core/executor"
import { executeRequest, isServiceError } from "@switchboard/core"
import { approvalPageUrl, serverBase } from "../console-links.js"
import { sendError } from "../http-errors.js"
import { executePaused } from "../wire/approvals.js"
import type { ExecutePausedBody } from "../wire/approvals.js"
import { executeBodyText } from "../wire/execute-body-text.js"
import { executeBody } from "../wire/execute.js"
import type { ExecuteBody } from "../wire/execute.js"
import { routeGroup } from "./route-group.js"

export const executeRoutes = routeGroup(({ executor }, { console, publicUrl }) => ({
  executor,
  console,
  publicUrl,
})).route({
  method: "post",
  path: "/v1/execute",
  scope: "execute",
  operationId: "execute",
  tag: "executions",
  summary: "Run a script in the sandbox",
  description:
    "A script that fails is still a 200: `ok` is false and `error.code` names the cause (each limit has its own code). " +
    "A script that reaches a call a policy says needs a person's approval pauses there, durably: 202, naming the approval; " +
    "nothing failed and nothing ended, so that answer has no `ok` and no `error`: its `status` is `paused`. " +
    "Once a person decides it (POST /v1/approvals/{id}), the run resumes and GET /v1/executions/{id} gives its end.",
  body: executeRequest,
  responses: {
    200: { description: "the run's outcome", json: executeBody },
    202: { description: "paused before a call that needs a person's approval", json: executePaused },
  },
  errors: ["Overloaded"],
  handler: async (c, { executor, console, publicUrl }) => {
    // the plain path (no fiber: it is the hot one); Overloaded, the typed admission error, is 429 with Retry-After
    const response = await executor.run(c.req.valid("json"), c.req.raw.signal, c.get("caller"))
    if (isServiceError(response)) return sendError(c, response)
    // for the request log
    c.set("executionId", response.executionId)
    // paused before a call that needs a person: accepted, not done (GET /v1/executions/{id} gives the end)
    if (Executor.isPausedResponse(response)) {
      if (!console) return c.json(response satisfies ExecutePausedBody, 202)
      const url = approvalPageUrl(serverBase(c.req.raw, publicUrl), response.approval.id)
      const linked = {
        ...response,
        message: `${response.message}; decide it at ${url}`,
        approval: { ...response.approval, url },
      }
      return c.json(linked satisfies ExecutePausedBody, 202)
    }
    if (!response.ok) c.set("errorCode", response.error.code)
    // a result that already is JSON text is written as it is: encoding a large value again stalls the server
    if (response.ok && response.resultJson !== undefined)
      return c.body(executeBodyText(response, response.resultJson), 200, {
        "content-type": "application/json",
      }) as unknown as TypedResponse<ExecuteBody, 200, "json">
    return c.json(response satisfies ExecuteBody)
  },
})
