/**
 * Retention on a running server, over a SQLite file and over Postgres: the host's background fiber prunes on the
 * host's clock (a TestClock here, moved a minute at a time, each minute one round), old executions go, recent
 * ones stay, one whose answer pointed at read_output stays an hour, and requests are answered while a prune of
 * many rows is under way. No timing is asserted.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import type { ExecutionEntry } from "@switchboard/core"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const T0 = 1_800_000_000_000

let cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

const entry = (id: string, startedAt: number, calls = 0): ExecutionEntry => ({
  execution: {
    id,
    code: "return 1",
    status: "ok",
    startedAt,
    durationMs: 1,
    resultText: "1",
    errorCode: null,
    errorMessage: null,
    logs: [],
    toolCallCount: calls,
    keyId: null,
    keepUntil: null,
  },
  calls: Array.from({ length: calls }, (_, i) => ({
    executionId: id,
    toolPath: "a.b",
    encoding: "direct",
    startedAt: startedAt + i,
    durationMs: 1,
    ok: true,
    errorCode: null,
    dataBytes: 1,
    outputSchemaError: null,
  })),
})

/** A server whose host runs on the test's clock and prunes what started more than 10 minutes ago, every minute. */
const serve = Effect.fn(function* (database: DatabaseKind) {
  yield* TestClock.setTime(T0)
  const clock = yield* Clock.Clock
  const log = memoryLogger()
  const server: TestServer = yield* Effect.promise(() =>
    startTestServer({
      database,
      clock,
      logger: log.logger,
      runtime: "in-thread",
      retain: { maxAgeMs: 10 * MINUTE, everyMs: MINUTE },
    }),
  )
  cleanups.push(() => server.stop())
  const has = (id: string) => Effect.promise(async () => (await server.host.store.getExecution(id)) !== null)
  /** one minute on, then a moment of real time for the round it wakes */
  const minute = Effect.andThen(
    TestClock.adjust(MINUTE),
    Effect.promise(() => new Promise((r) => setTimeout(r, 50))),
  )
  return { server, log, has, minute }
})

const record = (server: TestServer, entries: ExecutionEntry[]) =>
  Effect.promise(async () => {
    for (let i = 0; i < entries.length; i += 256) await server.host.store.recordBatch(entries.slice(i, i + 256))
  })

describe.each<DatabaseKind>(["sqlite", "postgres"])("retention on %s", (database) => {
  it.effect("old executions go with their tool calls, recent ones stay, one told to read_output stays an hour", () =>
    Effect.gen(function* () {
      const { server, log, has, minute } = yield* serve(database)
      const old = Array.from({ length: 120 }, (_, i) => entry(`old-${i}`, T0 - HOUR + i, 3))
      yield* record(server, [...old, entry("recent", T0 + 30 * MINUTE)])
      // cut at the inline cap: the answer points at read_output, so the record is held an hour
      const told = yield* Effect.promise(() => server.execute(`return "x".repeat(40000)`))
      expect(told.truncated).toBeDefined()
      expect(told.text).toContain("read_output")
      const plain = yield* Effect.promise(() => server.execute("return 1"))

      while ((yield* has("old-119")) || (yield* has(plain.executionId))) yield* minute
      expect(yield* Clock.currentTimeMillis).toBeLessThan(T0 + HOUR)
      for (const { execution } of old.slice(0, 5)) expect(yield* has(execution.id)).toBe(false)
      expect(yield* has(told.executionId)).toBe(true)
      expect(yield* has("recent")).toBe(true)

      // held until an hour after it was made, then gone at the next round
      while (yield* has(told.executionId)) yield* minute
      expect(yield* Clock.currentTimeMillis).toBeGreaterThanOrEqual(T0 + HOUR)
      expect(log.lines.filter((l) => l.level === "error")).toEqual([])
      expect(log.lines.some((l) => l.message === "retention: pruned executions")).toBe(true)
    }),
  )

  it.effect("requests are answered while a prune of many rows runs, batch after batch", () =>
    Effect.gen(function* () {
      const { server, log, has, minute } = yield* serve(database)
      const old = Array.from({ length: 10_000 }, (_, i) => entry(`many-${i}`, T0 - HOUR + i, 2))
      yield* record(server, old)
      yield* minute
      let during = 0
      // the newest of them goes last: every request answered before it went was answered during the prune
      while (yield* has("many-9999")) {
        const answer = yield* Effect.promise(() => server.request("POST", "/v1/execute", { code: "return 1" }))
        expect(answer.status).toBe(200)
        const read = yield* Effect.promise(() => server.request("GET", `/v1/executions/${answer.body.executionId}`))
        expect(read.status).toBe(200)
        if (yield* has("many-9999")) during++
      }
      expect(during).toBeGreaterThan(0)
      // the round logs once its last batch is in
      const pruned = yield* Effect.promise(async () => {
        for (;;) {
          const line = log.lines.find((l) => l.message === "retention: pruned executions")
          if (line) return line
          await new Promise((r) => setTimeout(r, 20))
        }
      })
      expect(pruned?.details).toMatchObject({ deleted: 10_000, done: true })
      expect(pruned?.details?.batches).toBeGreaterThanOrEqual(200)
    }),
  )
})
