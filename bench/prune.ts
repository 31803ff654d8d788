/**
 * Retention on the SQLite catalog, opened as the host opens it (`openSqlite`: WAL, synchronous NORMAL,
 * secure_delete, foreign keys): how long one prune batch holds the store, and what a store call waits while a
 * prune of many rows runs. Seeds EXECUTIONS executions of 10 tool calls and ~2 KB of result each, then times
 * sequential store calls (one execution record, then a read) idle, and again while `pruneExecutions` deletes every
 * one of the seeded rows. `pnpm tsx bench/prune.ts [executions]` (about 30 s for 50,000).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Catalog from "@switchboard/core/catalog"
import type { ExecutionEntry } from "@switchboard/core"
import { openSqlite } from "@switchboard/server"

const EXECUTIONS = Number(process.argv[2] ?? 50_000)
const dir = mkdtempSync(join(tmpdir(), "prune-bench-"))
const path = join(dir, "catalog.db")
const sqlite = openSqlite(path)
const store = Catalog.createSqliteCatalogStore(sqlite.db)

let n = 0
const entry = (startedAt: number): ExecutionEntry => {
  const id = `e${n++}`
  return {
    execution: {
      id,
      code: "const r = await tools.svc.search({ q: 'x' }); return r.data",
      status: "ok",
      startedAt,
      durationMs: 12,
      resultText: "y".repeat(2_000),
      errorCode: null,
      errorMessage: null,
      logs: [],
      toolCallCount: 10,
      keyId: null,
      keepUntil: null,
    },
    calls: Array.from({ length: 10 }, (_, i) => ({
      executionId: id,
      toolPath: "svc.search",
      encoding: "direct",
      startedAt: startedAt + i,
      durationMs: 1,
      ok: true,
      errorCode: null,
      dataBytes: 100,
      outputSchemaError: null,
    })),
  }
}

const seeded = Date.now() - 30 * 86_400_000
for (let i = 0; i < EXECUTIONS; i += 256)
  await store.recordBatch(Array.from({ length: Math.min(256, EXECUTIONS - i) }, (_, j) => entry(seeded + i + j)))
const sizeMb = () => (statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0)) / 1e6

/** µs of each sequential store call (record one execution, then read it) until `until` says stop */
const callTimes = async (until: () => boolean) => {
  const times: number[] = []
  while (!until()) {
    const started = process.hrtime.bigint()
    const one = entry(Date.now())
    await store.recordBatch([one])
    await store.getExecution(one.execution.id)
    times.push(Number(process.hrtime.bigint() - started) / 1_000)
    // as requests do, the next call arrives from the event loop (store calls alone are microtasks only)
    await new Promise((resolve) => setImmediate(resolve))
  }
  return times.sort((a, b) => a - b)
}
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const line = (what: string, t: number[]) =>
  `${what}: ${t.length} calls, median ${at(t, 0.5).toFixed(0)} µs, p99 ${at(t, 0.99).toFixed(0)} µs, max ${at(t, 1).toFixed(0)} µs`

const before = sizeMb()
/** ms of one batch of each size, alone (median of 9), deleting the oldest of the seeded rows */
const batchMs: string[] = []
for (const executions of [25, 50, 100, 200]) {
  const times: number[] = []
  for (let i = 0; i < 9; i++) {
    const started = process.hrtime.bigint()
    await store.pruneExecutions(
      { maxAgeMs: 86_400_000 },
      { now: Date.now(), maxBatches: 1, batch: { executions, toolCalls: executions * 10 } },
    )
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  batchMs.push(
    `${executions}: ${at(
      times.sort((a, b) => a - b),
      0.5,
    ).toFixed(1)} ms`,
  )
}
let idleCalls = 0
const idle = await callTimes(() => idleCalls++ >= 2_000)

// the prune deletes every seeded row (all started before the cutoff); the calls' own rows are recent
let pruning = true
const started = process.hrtime.bigint()
const pruned = store.pruneExecutions({ maxAgeMs: 86_400_000 }, { now: Date.now() }).finally(() => {
  pruning = false
})
const during = await callTimes(() => !pruning)
const report = await pruned
const pruneMs = Number(process.hrtime.bigint() - started) / 1e6

console.log(`seeded ${EXECUTIONS} executions with 10 tool calls each: ${before.toFixed(1)} MB`)
console.log(`one batch alone, by executions (10 tool calls each): ${batchMs.join(", ")}`)
console.log(line("store calls idle", idle))
console.log(line("store calls during the prune", during))
console.log(
  `prune: ${report.deleted} executions in ${report.batches} batches of at most ${Catalog.PRUNE_BATCH.executions}, ${pruneMs.toFixed(0)} ms (${(pruneMs / report.batches).toFixed(1)} ms a batch, calls between them included)`,
)
console.log(
  `during/idle: median ${(at(during, 0.5) / at(idle, 0.5)).toFixed(2)}x, p99 ${(at(during, 0.99) / at(idle, 0.99)).toFixed(2)}x`,
)
sqlite.close()
rmSync(dir, { recursive: true, force: true })
