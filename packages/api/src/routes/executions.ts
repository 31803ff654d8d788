import { Hono } from "hono"
import {
  InvalidInput,
  MAX_PAGE_LINES,
  NotFound,
  Overloaded,
  grepInPlace,
  readExecutionAs,
  readOutputLines,
} from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { errorBody, sendError } from "../http-errors.js"
import { MAX_TEXT_OFFSET, wholeNumber } from "../whole-number.js"

export const executionRoutes = ({ store, grep = grepInPlace }: AppServices) =>
  new Hono<AppEnv>()
    .get("/:id", async (c) => {
      const execution = await readExecutionAs(store, c.get("caller"), c.req.param("id"))
      return execution
        ? c.json({ execution })
        : sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
    })
    .get("/:id/output", async (c) => {
      const id = c.req.param("id")
      // another key's execution is "no execution", word for word: a key cannot probe for others' ids
      const execution = await readExecutionAs(store, c.get("caller"), id)
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      if (execution.resultText === null)
        return sendError(c, new NotFound({ message: `execution "${id}" failed and stored no output` }))
      const { offset, limit, charOffset, grep: pattern } = c.req.query()
      if (pattern !== undefined) {
        const found = await grep(execution.resultText, pattern)
        if (found.ok) return c.json({ executionId: id, ...found, ok: undefined })
        if (found.code === "overloaded")
          return sendError(c, new Overloaded({ message: found.message, retryAfterSeconds: 1 }))
        return found.code === "pattern_too_costly"
          ? c.json(errorBody(found.code, found.message), 400)
          : sendError(c, new InvalidInput({ message: found.message }))
      }
      if (offset === undefined && limit === undefined && charOffset === undefined) {
        // the stored bytes, exactly as stored: never re-rendered
        return c.body(execution.resultText, 200, { "content-type": "text/plain; charset=utf-8" })
      }
      const from = wholeNumber(offset, "offset", { min: 0, max: MAX_TEXT_OFFSET })
      const count = wholeNumber(limit, "limit", { min: 1, max: MAX_PAGE_LINES })
      const within = wholeNumber(charOffset, "charOffset", { min: 0, max: MAX_TEXT_OFFSET })
      for (const checked of [from, count, within])
        if (!checked.ok) return sendError(c, new InvalidInput({ message: checked.message }))
      const value = (checked: typeof from, fallback: number) => (checked.ok ? (checked.value ?? fallback) : fallback)
      return c.json({
        executionId: id,
        ...readOutputLines(execution.resultText, value(from, 0), value(count, 200), value(within, 0)),
      })
    })
