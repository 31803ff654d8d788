/**
 * The executor's abort signals: a caller hanging up stops the run and every tool call in flight, with the
 * caller's reason; the run ending cancels the calls it leaves behind.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import { createExecutor } from "../src/index.js"
import type { CatalogStore, CodeRuntime, InvokeTool, RunOptions, SourcePlugin, SourcesService } from "../src/index.js"
import { openSqliteStore } from "./sqlite-store.js"

let opened: ReturnType<typeof openSqliteStore>
let store: CatalogStore
beforeEach(async () => {
  opened = openSqliteStore()
  store = opened.store
  await store.insertSource({
    id: "s1",
    namespace: "fake",
    kind: "fake",
    config: {},
    status: "ready",
    lastSyncedAt: 1,
    syncError: null,
    createdAt: 1,
    updatedAt: 1,
  })
  await store.applySync(
    "s1",
    [{ name: "slow", description: null, inputSchema: {}, outputSchema: null, annotations: null }],
    "direct",
    1,
  )
})
afterEach(() => opened.close())

/** A plugin whose one tool answers only when its signal aborts, and says with what reason. */
const waitingPlugin = () => {
  const seen: { signal?: AbortSignal }[] = []
  let started: () => void = () => {}
  const invoked = new Promise<void>((resolve) => (started = resolve))
  const plugin = {
    kind: "fake",
    invoke: (_source, _tool, _args, ctx) => {
      seen.push({ signal: ctx.signal })
      started()
      const answer = () => ({ ok: false as const, code: "aborted", message: String(ctx.signal!.reason) })
      return ctx.signal!.aborted
        ? Promise.resolve(answer())
        : new Promise((resolve) => ctx.signal!.addEventListener("abort", () => resolve(answer())))
    },
  } as Pick<SourcePlugin, "kind" | "invoke"> as SourcePlugin
  return { plugin, seen, invoked }
}

/** A runtime that runs `script` with the executor's invoke and the options it was given. */
const runtimeOf = (script: (invoke: InvokeTool, options: RunOptions) => Promise<unknown>): CodeRuntime => ({
  run: async (_code, options) => ({ ok: true, value: await script(options.invoke, options), logs: [] }),
})

const executorWith = (runtime: CodeRuntime, plugin: SourcePlugin) =>
  createExecutor({
    store,
    sources: { ensureFresh: async (row) => row, markStale: () => {} } as Pick<
      SourcesService,
      "ensureFresh" | "markStale"
    >,
    runtime,
    plugins: [plugin],
    logger: { error: () => {}, warn: () => {}, info: () => {} },
  })

it("a caller hanging up aborts the run and the tool call in flight, with the caller's reason", async () => {
  const { plugin, seen, invoked } = waitingPlugin()
  let runSignal: AbortSignal | undefined
  const executor = executorWith(
    runtimeOf(async (invoke, options) => {
      runSignal = options.signal
      return invoke("fake.slow", {})
    }),
    plugin,
  )
  const caller = new AbortController()
  const running = executor.execute({ code: "" }, caller.signal)
  await invoked
  caller.abort("the client went away")
  const response = await running
  expect(runSignal?.aborted).toBe(true)
  expect(seen[0]?.signal?.reason).toBe("the client went away")
  expect(response).toMatchObject({
    ok: true,
    result: { ok: false, error: { code: "aborted", message: "the client went away" } },
  })
})

it("a tool call still in flight when the run ends is cancelled and recorded as aborted", async () => {
  const { plugin, seen, invoked } = waitingPlugin()
  const executor = executorWith(
    runtimeOf(async (invoke) => {
      void invoke("fake.slow", {})
      await invoked
      return "done"
    }),
    plugin,
  )
  const caller = new AbortController()
  const response = await executor.execute({ code: "" }, caller.signal)
  expect(response).toMatchObject({ ok: true, result: "done" })
  expect(seen[0]?.signal?.aborted).toBe(true)
  expect(String(seen[0]?.signal?.reason)).toMatch(/the execution ended/)
  expect(caller.signal.aborted).toBe(false)
  expect((await store.getExecution(response.executionId!))?.calls).toMatchObject([
    { toolPath: "fake.slow", ok: false, errorCode: "aborted" },
  ])
})

it("a caller that has already hung up gets a tool signal that is already aborted", async () => {
  const { plugin, seen } = waitingPlugin()
  const executor = executorWith(
    runtimeOf(async (invoke) => invoke("fake.slow", {})),
    plugin,
  )
  const caller = new AbortController()
  caller.abort("gone before the call")
  await executor.execute({ code: "" }, caller.signal)
  expect(seen[0]?.signal?.reason).toBe("gone before the call")
})
