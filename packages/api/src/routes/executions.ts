import { Hono } from "hono"
import {
  DEFAULT_PAGE_LINES,
  InvalidInput,
  NotFound,
  Overloaded,
  grepInPlace,
  DEFAULT_LIST_EXECUTIONS,
  listExecutionsPage,
  readExecutionAs,
  readOutputLines,
} from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { errorResponse, sendError } from "../http-errors.js"
import { query } from "../validate.js"
import { approvalViewOf } from "../wire/approval-views.js"
import { executionsQuery, outputQuery } from "../wire/executions.js"
import type { ExecutionBody, ExecutionsBody, OutputMatchesBody, OutputPageBody } from "../wire/executions.js"

export const executionRoutes = ({ store, approvals, grep = grepInPlace }: AppServices) =>
  new Hono<AppEnv>()
    .get("/", query(executionsQuery), async (c) => {
      const { limit = DEFAULT_LIST_EXECUTIONS, before, status } = c.req.valid("query")
      // a key without admin lists its own, whatever it asks; a full page names the next (core's listExecutionsPage)
      const page = await listExecutionsPage(store, c.get("caller"), { limit, before, status })
      return c.json(page satisfies ExecutionsBody)
    })
    .get("/:id", async (c) => {
      c.set("executionId", c.req.param("id"))
      const execution = await readExecutionAs(store, c.get("caller"), c.req.param("id"))
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
      if (execution.status !== "paused") return c.json({ execution } satisfies ExecutionBody)
      // what it waits for: read as the execution was, so its own key sees it too
      const [pending] = await approvals.list(c.get("caller"), {
        executionId: execution.id,
        status: "pending",
        limit: 1,
      })
      return c.json(
        (pending ? { execution, approval: approvalViewOf(pending) } : { execution }) satisfies ExecutionBody,
      )
    })
    .get("/:id/output", query(outputQuery), async (c) => {
      const id = c.req.param("id")
      c.set("executionId", id)
      // another key's execution is "no execution", word for word: a key cannot probe for others' ids
      const execution = await readExecutionAs(store, c.get("caller"), id)
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      if (execution.resultText === null)
        return sendError(c, new NotFound({ message: `execution "${id}" failed and stored no output` }))
      const { offset, limit, charOffset, grep: pattern } = c.req.valid("query")
      if (pattern !== undefined) {
        const found = await grep(execution.resultText, pattern)
        if (found.ok) {
          const { ok: _, ...matches } = found
          return c.json({ executionId: id, ...matches } satisfies OutputMatchesBody)
        }
        if (found.code === "overloaded")
          return sendError(c, new Overloaded({ message: found.message, retryAfterSeconds: 1 }))
        return found.code === "pattern_too_costly"
          ? errorResponse(c, found.code, found.message, 400)
          : sendError(c, new InvalidInput({ message: found.message }))
      }
      if (offset === undefined && limit === undefined && charOffset === undefined) {
        // the stored bytes, exactly as stored: never re-rendered
        return c.body(execution.resultText, 200, { "content-type": "text/plain; charset=utf-8" })
      }
      const page = readOutputLines(execution.resultText, offset ?? 0, limit ?? DEFAULT_PAGE_LINES, charOffset ?? 0)
      return c.json({ executionId: id, ...page } satisfies OutputPageBody)
    })
