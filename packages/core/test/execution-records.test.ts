/**
 * Execution records through the executor into a real SQLite file: executions that finish together share a
 * transaction, and every execute answers only once its own record is committed.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import { Effect } from "effect"
import { DEFAULT_INLINE_CAP } from "../src/render/render-for-model.js"
import { POINTED_OUTPUT_HOLD_MS } from "../src/catalog/retention.js"
import { createExecutor } from "../src/executor/executor.js"
import type { EndedResponse } from "../src/executor/response.js"
import type { Caller } from "../src/auth/scopes.js"
import type { SourcesService } from "../src/sources/sources-service.js"
import type { TelemetrySink } from "../src/seams.js"
import type { CatalogStore, CodeRuntime, ExecuteRequest, ExecutionEntry, Logger } from "../src/index.js"
import { openSqliteStore } from "./sqlite-store.js"

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let opened: ReturnType<typeof openSqliteStore>
let store: CatalogStore
beforeEach(() => {
  opened = openSqliteStore()
  store = opened.store
})
afterEach(() => opened.close())

/** A runtime that returns the script's text: no sandbox needed to exercise the record path. */
const echoRuntime: CodeRuntime = {
  run: async (code) => ({ ok: true, value: code, logs: [{ level: "log", message: `ran ${code}` }] }),
}

/** The store as the telemetry sink, with every batch it is handed kept; `failFirst` fails the first batch. */
const countingSink = (failFirst = false) => {
  const batches: string[][] = []
  const sink: TelemetrySink = {
    recordBatch: async (entries: readonly ExecutionEntry[]) => {
      batches.push(entries.map((e) => e.execution.id))
      if (failFirst && batches.length === 1) throw new Error("the disk is full")
      await store.recordBatch(entries)
    },
  }
  return { sink, batches }
}

const memoryLogger = () => {
  const errors: string[] = []
  const logger: Logger = { error: (message) => void errors.push(message), warn: () => {}, info: () => {} }
  return { logger, errors }
}

/** The executor with `execute` run to a promise, as a surface runs it. */
const executorWith = (telemetry: TelemetrySink, logger: Logger = memoryLogger().logger) => {
  const executor = createExecutor({
    store,
    sources: {} as Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">,
    runtime: echoRuntime,
    plugins: [],
    logger,
    telemetry,
  })
  return {
    execute: (request: ExecuteRequest, by?: Pick<Caller, "keyId">) => Effect.runPromise(executor.execute(request, by)),
  }
}

it("twenty concurrent executes are all recorded, in fewer transactions than records, each stored before it answers", async () => {
  const { sink, batches } = countingSink()
  const executor = executorWith(sink)
  const found = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const response = await executor.execute({ code: `script ${i}` })
      // read at once, before any other execute is awaited: the answer names a committed record
      return { response, stored: await store.getExecution(response.executionId!) }
    }),
  )
  for (const [i, { response, stored }] of found.entries()) {
    expect(response).toMatchObject({ ok: true })
    expect(stored).toMatchObject({
      id: response.executionId,
      code: `script ${i}`,
      status: "ok",
      resultText: `script ${i}`,
      logs: [{ level: "log", message: `ran script ${i}` }],
      calls: [],
    })
  }
  expect(batches.length).toBeLessThan(20)
  expect(batches.flat().sort()).toEqual(found.map((f) => f.response.executionId).sort())
})

it("a batch that fails fails each execute in it (logged, answered as not stored, naming no id); the next batch is written", async () => {
  const { sink, batches } = countingSink(true)
  const { logger, errors } = memoryLogger()
  const executor = executorWith(sink, logger)
  const lost = await Promise.all([executor.execute({ code: "a" }), executor.execute({ code: "b" })])
  expect(lost.map((r) => [(r as EndedResponse).ok, r.stored, r.executionId])).toEqual([
    [true, false, undefined],
    [true, false, undefined],
  ])
  for (const response of lost)
    expect(response.warning).toMatch(
      /^this execution's record was not stored \(the disk is full; correlation id [0-9a-f-]{36}\)/,
    )
  expect(batches).toHaveLength(1)
  expect(errors).toEqual(["internal error in execution record", "internal error in execution record"])
  for (const id of batches[0]!) expect(await store.getExecution(id)).toBeNull()

  const kept = await executor.execute({ code: "c" })
  expect(kept).toMatchObject({ stored: true })
  expect(kept.warning).toBeUndefined()
  expect(await store.getExecution(kept.executionId!)).toMatchObject({ code: "c", status: "ok" })
  expect(batches).toHaveLength(2)
})

it("an execution records the key that asked for it, and none without a key", async () => {
  const executor = executorWith(store)
  const [keyed, unkeyed] = await Promise.all([
    executor.execute({ code: "a" }, { keyId: "key-1" }),
    executor.execute({ code: "b" }),
  ])
  expect(await store.getExecution(keyed.executionId!)).toMatchObject({ code: "a", keyId: "key-1" })
  expect(await store.getExecution(unkeyed.executionId!)).toMatchObject({ code: "b", keyId: null })
})

it("an answer cut at the inline cap holds its record an hour past any retention; one answered whole holds none", async () => {
  const executor = executorWith(store)
  const before = Date.now()
  // the echo runtime answers the code as the result
  const [cut, whole] = await Promise.all([
    executor.execute({ code: "x".repeat(DEFAULT_INLINE_CAP + 1) }),
    executor.execute({ code: "x".repeat(DEFAULT_INLINE_CAP) }),
  ])
  const after = Date.now()
  expect((cut as EndedResponse).ok && (cut as { text: string }).text).toContain("read_output")
  const held = (await store.getExecution(cut.executionId!))!.keepUntil!
  expect(held).toBeGreaterThanOrEqual(before + POINTED_OUTPUT_HOLD_MS)
  expect(held).toBeLessThanOrEqual(after + POINTED_OUTPUT_HOLD_MS)
  expect((await store.getExecution(whole.executionId!))?.keepUntil).toBeNull()
})

it("execution ids are unique UUID v7 strings, in the order the executions started", async () => {
  const executor = executorWith(store)
  const ids: string[] = []
  for (let i = 0; i < 50; i++) ids.push((await executor.execute({ code: "return 1" })).executionId!)
  ids.push(
    ...(await Promise.all(Array.from({ length: 50 }, () => executor.execute({ code: "return 2" })))).map(
      (r) => r.executionId!,
    ),
  )
  for (const id of ids) expect(id).toMatch(UUID_V7)
  expect(new Set(ids).size).toBe(100)
  expect([...ids].sort()).toEqual(ids)
})
