import { Hono } from "hono"
import { InvalidInput, NotFound, grepOutput, readExecutionAs, readOutputLines } from "@switchboard/core"
import type { AppServices } from "../app.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"

const wholeNumber = (text: string | undefined, fallback: number) => (text === undefined ? fallback : /^\d+$/.test(text) ? Number(text) : null)

export const executionRoutes = ({ store }: AppServices) =>
  new Hono<AppEnv>()
    .get("/:id", async (c) => {
      const execution = await readExecutionAs(store, c.get("caller"), c.req.param("id"))
      return execution ? c.json({ execution }) : sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
    })
    .get("/:id/output", async (c) => {
      const id = c.req.param("id")
      // another key's execution is "no execution", word for word: a key cannot probe for others' ids
      const execution = await readExecutionAs(store, c.get("caller"), id)
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      if (execution.resultText === null) return sendError(c, new NotFound({ message: `execution "${id}" failed and stored no output` }))
      const { offset, limit, grep } = c.req.query()
      if (grep !== undefined) {
        const found = grepOutput(execution.resultText, grep)
        return found.ok ? c.json({ executionId: id, ...found, ok: undefined }) : sendError(c, new InvalidInput({ message: found.message }))
      }
      if (offset === undefined && limit === undefined) {
        // the stored bytes, exactly as stored: never re-rendered
        return c.body(execution.resultText, 200, { "content-type": "text/plain; charset=utf-8" })
      }
      const from = wholeNumber(offset, 0)
      const count = wholeNumber(limit, 200)
      if (from === null || count === null || count === 0) return sendError(c, new InvalidInput({ message: "offset and limit must be whole numbers (limit at least 1)" }))
      return c.json({ executionId: id, ...readOutputLines(execution.resultText, from, count) })
    })
