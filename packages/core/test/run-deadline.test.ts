/**
 * One deadline per execution: the runtime is handed the moment the run must end, its time limit counted on the
 * wall clock from when the executor took the request, and a tool call's plugin is handed the same moment.
 * The host's own clock (a test clock here, far from the wall clock) times records, never the run.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import type { CatalogStore, CodeRuntime, InvokeContext, SourcePlugin } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
let store: CatalogStore
beforeEach(async () => {
  opened = await openStoreWithFakeSource("echo")
  store = opened.store
})
afterEach(() => opened.close())

/** a host clock a month and more from the wall clock, as a test clock is */
const hostClock = () => Date.now() + 40 * 24 * 60 * 60 * 1000

it("the runtime gets the execution's deadline on the wall clock, and a tool call's plugin the same deadline", async () => {
  const deadlines: (number | undefined)[] = []
  const contexts: InvokeContext[] = []
  const runtime: CodeRuntime = {
    run: async (_code, options) => {
      deadlines.push(options.deadline)
      await options.invoke("fake.echo", {})
      return { ok: true, value: 1, logs: [] }
    },
  }
  const plugin = {
    kind: "fake",
    invoke: async (_source, _tool, _args, ctx) => {
      contexts.push(ctx)
      return { ok: true as const, raw: null }
    },
  } as Pick<SourcePlugin, "kind" | "invoke"> as SourcePlugin
  const executor = executorOver(store, runtime, plugin, { limits: { timeoutMs: 5_000 }, now: hostClock })

  const before = Date.now()
  await executor.run({ code: "", timeoutMs: 2_000 })
  await executor.run({ code: "" })
  const after = Date.now()

  expect(deadlines[0]).toBeGreaterThanOrEqual(before + 2_000)
  expect(deadlines[0]).toBeLessThanOrEqual(after + 2_000)
  expect(deadlines[1]).toBeGreaterThanOrEqual(before + 5_000)
  expect(deadlines[1]).toBeLessThanOrEqual(after + 5_000)
  expect(contexts.map((ctx) => ctx.deadline)).toEqual(deadlines)
})
