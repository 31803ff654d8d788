/**
 * A caller hanging up interrupts its execution's fiber: the run and every tool call in flight are aborted, and
 * the execution is still recorded; the run ending cancels the calls it leaves behind; a runtime with no room
 * refuses the run with the typed Overloaded.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import { Effect, Exit, Fiber } from "effect"
import { okResult } from "../src/result.js"
import { defaultLimits } from "../src/index.js"
import { Execution } from "../src/executor/execution.js"
import type { CatalogStore, CodeRuntime, ExecutionEntry, InvokeTool, RunOptions, SourcePlugin } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
let store: CatalogStore
beforeEach(async () => {
  opened = await openStoreWithFakeSource("slow")
  store = opened.store
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

/** every entry the executor wrote, in order */
let recorded: ExecutionEntry[] = []
beforeEach(() => {
  recorded = []
})

const executorWith = (runtime: CodeRuntime, plugin: SourcePlugin) =>
  executorOver(store, runtime, plugin, {
    telemetry: {
      recordBatch: async (entries) => {
        recorded.push(...entries)
        await store.recordBatch(entries)
      },
    },
  })

it("a caller hanging up interrupts the execution: the run and the tool call in flight are aborted, and the execution is still recorded", async () => {
  const { plugin, seen, invoked } = waitingPlugin()
  let runSignal: AbortSignal | undefined
  const executor = executorWith(
    runtimeOf(async (invoke, options) => {
      runSignal = options.signal
      return invoke("fake.slow", {})
    }),
    plugin,
  )
  const fiber = Effect.runFork(executor.execute({ code: "" }))
  await invoked
  // the interruption ends once the execution has ended and its record is written
  const exit = await Effect.runPromise(Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber))))
  expect(Exit.hasInterrupts(exit)).toBe(true)
  expect(runSignal?.aborted).toBe(true)
  expect(seen[0]?.signal?.aborted).toBe(true)
  const [entry] = recorded
  expect(entry?.calls).toMatchObject([{ toolPath: "fake.slow", ok: false, errorCode: "aborted" }])
})

it("a surface's request signal interrupts the execution when the caller hangs up", async () => {
  const { plugin, seen, invoked } = waitingPlugin()
  const executor = executorWith(
    runtimeOf(async (invoke) => invoke("fake.slow", {})),
    plugin,
  )
  const caller = new AbortController()
  const running = Effect.runPromiseExit(executor.execute({ code: "" }), { signal: caller.signal })
  await invoked
  caller.abort("the client went away")
  expect(Exit.hasInterrupts(await running)).toBe(true)
  expect(seen[0]?.signal?.aborted).toBe(true)
  expect(recorded).toHaveLength(1)
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
  const response = await Effect.runPromise(executor.execute({ code: "" }))
  expect(response).toMatchObject({ ok: true, result: "done" })
  expect(seen[0]?.signal?.aborted).toBe(true)
  expect(String(seen[0]?.signal?.reason)).toMatch(/the execution ended/)
  expect((await store.getExecution(response.executionId!))?.calls).toMatchObject([
    { toolPath: "fake.slow", ok: false, errorCode: "aborted" },
  ])
})

it("an execution whose caller had already hung up gives its tool calls a signal already aborted, with the caller's reason", () => {
  const caller = new AbortController()
  caller.abort("gone before the call")
  const execution = new Execution({
    code: "",
    limits: defaultLimits,
    callerSignal: caller.signal,
    keyId: null,
    callTool: async () => okResult(null),
    now: Date.now,
  })
  expect(execution.signal.aborted).toBe(true)
  expect(execution.signal.reason).toBe("gone before the call")
})

it("a runtime with no room refuses the run with the typed Overloaded, and nothing is recorded", async () => {
  const executor = executorWith(
    {
      run: async () => ({
        ok: false,
        error: { code: "overloaded", message: "every sandbox is busy", retryAfterSeconds: 3 },
        logs: [],
      }),
    },
    waitingPlugin().plugin,
  )
  const exit = await Effect.runPromiseExit(executor.execute({ code: "return 1" }))
  expect(exit).toMatchObject({
    _tag: "Failure",
    cause: { reasons: [{ error: { _tag: "Overloaded", retryAfterSeconds: 3 } }] },
  })
  // the plain path (the HTTP route's) returns the same typed error as a value
  expect(await executor.run({ code: "return 1" })).toMatchObject({ _tag: "Overloaded", retryAfterSeconds: 3 })
  expect(recorded).toHaveLength(0)
})
