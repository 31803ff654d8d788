/**
 * The metrics seam (MetricsSink in src/seams.ts): the executor counts each execution's end and each refusal, the
 * tool invoker each call with the source it reached and the time upstream, the sources service each sync.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import { Effect } from "effect"
import { createSourcesService } from "../src/sources/sources-service.js"
import type { CatalogStore, CodeRuntime, InvokeTool, MetricsSink, RunOutcome, SourcePlugin } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
let store: CatalogStore
beforeEach(async () => {
  opened = await openStoreWithFakeSource("echo")
  store = opened.store
})
afterEach(() => opened.close())

const counted = () => {
  const events: unknown[][] = []
  const sink: MetricsSink = {
    executionEnded: (...args) => void events.push(["executionEnded", ...args]),
    executionRejected: () => void events.push(["executionRejected"]),
    toolCallEnded: (source, ok, errorCode, upstreamMs) =>
      void events.push(["toolCallEnded", { source, ok, errorCode, upstreamMs }]),
    syncEnded: (...args) => void events.push(["syncEnded", ...args]),
  }
  return { sink, events }
}

/** A plugin whose `echo` answers with its arguments, and whose discovery fails. */
const plugin = {
  kind: "fake",
  invoke: async (_source, _tool, args) => ({ ok: true, raw: args }),
  discover: async () => ({ ok: false, message: "the upstream is down" }),
  release: async () => {},
  redactConfig: (config: unknown) => config,
} as Pick<SourcePlugin, "kind" | "invoke" | "discover" | "release" | "redactConfig"> as SourcePlugin

const executorWith = (metrics: MetricsSink, run: (invoke: InvokeTool) => Promise<RunOutcome>) => {
  const runtime: CodeRuntime = { run: (_code, options) => run(options.invoke) }
  return executorOver(store, runtime, plugin, { metrics })
}

it("counts an execution's end with its status and code, and each tool call with the source it reached", async () => {
  const { sink, events } = counted()
  const executor = executorWith(sink, async (invoke) => {
    await invoke("fake.echo", { a: 1 })
    await invoke("nowhere.tool", {})
    return { ok: false, error: { code: "runtime_error", message: "boom" }, logs: [] }
  })
  await executor.run({ code: "" })
  expect(events).toEqual([
    ["toolCallEnded", { source: "fake", ok: true, errorCode: null, upstreamMs: expect.any(Number) }],
    // a path that resolves to no source is counted without one: a script cannot make up label values
    ["toolCallEnded", { source: null, ok: false, errorCode: "tool_not_found", upstreamMs: null }],
    ["executionEnded", "error", "runtime_error", expect.any(Number)],
  ])
})

it("counts a run refused for want of room, and not as an execution", async () => {
  const { sink, events } = counted()
  const executor = executorWith(sink, async () => ({
    ok: false,
    error: { code: "overloaded", message: "every sandbox is busy", retryAfterSeconds: 1 },
    logs: [],
  }))
  expect(await executor.run({ code: "" })).toMatchObject({ _tag: "Overloaded" })
  expect(events).toEqual([["executionRejected"]])
})

it("counts each sync of a stored source with its result", async () => {
  const { sink, events } = counted()
  const sources = createSourcesService({
    store,
    plugins: [plugin],
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    metrics: sink,
  })
  const failed = await Effect.runPromiseExit(sources.sync("fake"))
  expect(failed._tag).toBe("Failure")
  expect(events).toEqual([["syncEnded", "fake", false]])
})
