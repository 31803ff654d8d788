import { Hono } from "hono"
import { InvalidInput, NotFound, Overloaded, grepInPlace, readOutputLines } from "@switchboard/core"
import type { AppServices } from "../app.js"
import { errorBody, sendError } from "../http-errors.js"

const wholeNumber = (text: string | undefined, fallback: number) => (text === undefined ? fallback : /^\d+$/.test(text) ? Number(text) : null)

export const executionRoutes = ({ store, grep = grepInPlace }: AppServices) =>
  new Hono()
    .get("/:id", async (c) => {
      const execution = await store.getExecution(c.req.param("id"))
      return execution ? c.json({ execution }) : sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
    })
    .get("/:id/output", async (c) => {
      const id = c.req.param("id")
      const execution = await store.getExecution(id)
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      if (execution.resultText === null) return sendError(c, new NotFound({ message: `execution "${id}" failed and stored no output` }))
      const { offset, limit, charOffset, grep: pattern } = c.req.query()
      if (pattern !== undefined) {
        const found = await grep(execution.resultText, pattern)
        if (found.ok) return c.json({ executionId: id, ...found, ok: undefined })
        if (found.code === "overloaded") return sendError(c, new Overloaded({ message: found.message, retryAfterSeconds: 1 }))
        return found.code === "pattern_too_costly" ? c.json(errorBody(found.code, found.message), 400) : sendError(c, new InvalidInput({ message: found.message }))
      }
      if (offset === undefined && limit === undefined && charOffset === undefined) {
        // the stored bytes, exactly as stored: never re-rendered
        return c.body(execution.resultText, 200, { "content-type": "text/plain; charset=utf-8" })
      }
      const from = wholeNumber(offset, 0)
      const count = wholeNumber(limit, 200)
      const within = wholeNumber(charOffset, 0)
      if (from === null || count === null || within === null || count === 0) return sendError(c, new InvalidInput({ message: "offset, limit and charOffset must be whole numbers (limit at least 1)" }))
      return c.json({ executionId: id, ...readOutputLines(execution.resultText, from, count, within) })
    })
