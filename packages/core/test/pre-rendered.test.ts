/**
 * A runtime that renders the result itself (a worker pool does, off the main thread) is asked to render it as
 * the executor would, and its text is what the execution stores and answers.
 */
import { Effect } from "effect"
import { afterEach, beforeEach, expect, it } from "vitest"
import { createExecutor } from "../src/executor/executor.js"
import type { SourcesService } from "../src/sources/sources-service.js"
import type { CodeRuntime, RunOptions } from "../src/index.js"
import { openSqliteStore } from "./sqlite-store.js"

let opened: ReturnType<typeof openSqliteStore>
beforeEach(() => {
  opened = openSqliteStore()
})
afterEach(() => opened.close())

it("the executor asks for its rendering and uses the runtime's text when there is one", async () => {
  const asked: RunOptions["render"][] = []
  const runtime: CodeRuntime = {
    run: async (_code, options) => {
      asked.push(options.render)
      return { ok: true, value: { big: true }, logs: [], rendered: { text: "rendered elsewhere", media: [] } }
    },
  }
  const executor = createExecutor({
    store: opened.store,
    sources: {} as Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">,
    runtime,
    plugins: [],
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    inlineCap: 500,
    limits: { maxResultBytes: 4096 },
  })
  const response = await Effect.runPromise(executor.execute({ code: "return x" }))
  expect(asked).toEqual([{ inlineCap: 500, maxChars: 4096 }])
  expect(response).toMatchObject({ ok: true, result: { big: true }, text: "rendered elsewhere" })
  expect((await opened.store.getExecution(response.executionId!))?.resultText).toBe("rendered elsewhere")
})
