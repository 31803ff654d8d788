/**
 * The store contract's retention, run by every implementation within catalogStoreContract: `pruneExecutions`
 * deletes what is past the age or beyond the newest N, with its tool calls and result parts, keeps what a hold
 * covers, and works in batches bounded by executions, tool calls and bytes of text.
 */
import { beforeEach, expect, it } from "vitest"
import type { CatalogStore, ExecutionEntry, ExecutionRecord } from "../src/index.js"
import { approval as approvalRow } from "./catalog-store-approvals.contract.js"
import { call, run } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const T0 = 1_700_000_000_000
const HOUR = 3_600_000

const entry = (id: string, startedAt: number, extra: Partial<ExecutionRecord> = {}, calls = 0): ExecutionEntry => ({
  execution: { ...run(id), startedAt, toolCallCount: calls, ...extra },
  calls: Array.from({ length: calls }, (_, i) => ({ ...call(id, i), startedAt: startedAt + i })),
})

export const catalogStoreRetentionContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })
  const kept = async (ids: string[]) => {
    const found: string[] = []
    for (const id of ids) if (await store.getExecution(id)) found.push(id)
    return found
  }

  it("deletes what started before the age, with its tool calls and result parts; what is recent stays whole", async () => {
    const now = T0 + 10 * HOUR
    // a result of 600,000 bytes: in parts where the dialect cuts at 64 KiB
    const big = { resultText: "é".repeat(300_000) }
    const old = [entry("old-1", T0, big, 3), entry("old-2", T0 + HOUR, {}, 2), entry("old-3", now - 2 * HOUR - 1)]
    const recent = [entry("new-1", now - 2 * HOUR, {}, 2), entry("new-2", now - 1, big, 1)]
    await store.recordBatch([...old, ...recent])

    const report = await store.pruneExecutions({ maxAgeMs: 2 * HOUR }, { now })
    expect(report).toEqual({ deleted: 3, batches: 1, done: true })
    expect(await kept(["old-1", "old-2", "old-3", "new-1", "new-2"])).toEqual(["new-1", "new-2"])
    for (const { execution, calls } of recent)
      expect(await store.getExecution(execution.id)).toEqual({ ...execution, calls })

    // nothing of the old ones is left behind: recorded again under the same ids, they read back as only themselves
    // (a tool call left over would be read with them; a result part left over would collide with the new ones)
    await store.recordBatch(old)
    for (const { execution, calls } of old)
      expect(await store.getExecution(execution.id)).toEqual({ ...execution, calls })
    expect(await store.pruneExecutions({ maxAgeMs: 2 * HOUR }, { now })).toMatchObject({ deleted: 3 })
    expect(await store.pruneExecutions({ maxAgeMs: 2 * HOUR }, { now })).toEqual({ deleted: 0, batches: 0, done: true })
  })

  it("keeps the newest N by start time, ties in a millisecond broken the same way every time", async () => {
    // 30 executions over 10 milliseconds, 3 to a millisecond, recorded out of order
    const entries = Array.from({ length: 30 }, (_, i) =>
      entry(`n${String(i).padStart(2, "0")}`, T0 + Math.floor(i / 3)),
    )
    await store.recordBatch([...entries].reverse())
    const report = await store.pruneExecutions({ maxExecutions: 7 }, { now: T0 + HOUR })
    expect(report.deleted).toBe(23)
    // n23 shares its millisecond with n22 and n21, and is after them by id
    expect(await kept(entries.map((e) => e.execution.id))).toEqual(["n23", "n24", "n25", "n26", "n27", "n28", "n29"])
    expect(await store.pruneExecutions({ maxExecutions: 7 }, { now: T0 + HOUR })).toMatchObject({ deleted: 0 })
    expect(await store.pruneExecutions({ maxExecutions: 0 }, { now: T0 + HOUR })).toMatchObject({ deleted: 7 })
  })

  it("with both bounds, each deletes what it covers", async () => {
    const now = T0 + 100 * HOUR
    const entries = Array.from({ length: 10 }, (_, i) => entry(`b${i}`, now - (10 - i) * HOUR))
    await store.recordBatch(entries)
    // the age alone would keep b5..b9, the count alone b3..b9
    expect((await store.pruneExecutions({ maxAgeMs: 5 * HOUR, maxExecutions: 7 }, { now })).deleted).toBe(5)
    // the count alone would keep b7..b9 now, the age b5..b9
    expect((await store.pruneExecutions({ maxAgeMs: 5 * HOUR, maxExecutions: 3 }, { now })).deleted).toBe(2)
    expect(await kept(entries.map((e) => e.execution.id))).toEqual(["b7", "b8", "b9"])
  })

  it("an execution held by keepUntil stays past the age and the count until the hold ends", async () => {
    const now = T0 + 48 * HOUR
    await store.recordBatch([
      entry("held", T0, { keepUntil: now + HOUR }, 2),
      entry("free", T0 + 1),
      entry("ended", T0 + 2, { keepUntil: now }),
      entry("latest", now - 1),
    ])
    expect(await store.pruneExecutions({ maxAgeMs: HOUR, maxExecutions: 1 }, { now })).toMatchObject({ deleted: 2 })
    expect(await kept(["held", "free", "ended", "latest"])).toEqual(["held", "latest"])
    expect((await store.getExecution("held"))?.calls).toHaveLength(2)
    expect(await store.pruneExecutions({ maxAgeMs: HOUR }, { now: now + HOUR - 1 })).toMatchObject({ deleted: 0 })
    expect(await store.pruneExecutions({ maxAgeMs: HOUR }, { now: now + HOUR })).toMatchObject({ deleted: 2 })
  })

  it("works in batches bounded by executions, tool calls and bytes of text (the first of a batch always goes)", async () => {
    const now = T0 + HOUR
    const many = Array.from({ length: 60 }, (_, i) => entry(`c${String(i).padStart(2, "0")}`, T0 + i, {}, 4))
    await store.recordBatch(many)
    const policy = { maxExecutions: 0 }
    expect(await store.pruneExecutions(policy, { now, maxBatches: 1, batch: { executions: 25 } })).toEqual({
      deleted: 25,
      batches: 1,
      done: false,
    })
    // 4 calls each: 10 calls hold 2 executions, and a third would pass the bound
    expect(await store.pruneExecutions(policy, { now, maxBatches: 2, batch: { toolCalls: 10 } })).toEqual({
      deleted: 4,
      batches: 2,
      done: false,
    })
    // the oldest went first
    expect(await kept(["c28", "c29"])).toEqual(["c29"])
    const rest = await store.pruneExecutions(policy, { now, batch: { executions: 7 } })
    expect(rest).toEqual({ deleted: 31, batches: 5, done: true })

    // bytes of UTF-8, not characters: 10,000 bytes each ("é" is 2), so 25,000 hold 2; the large one goes alone
    const text = (id: string, startedAt: number, chars: number) =>
      entry(id, startedAt, { code: "", resultText: "é".repeat(chars) })
    await store.recordBatch([
      text("t1", T0, 5_000),
      text("t2", T0 + 1, 5_000),
      text("t3", T0 + 2, 5_000),
      text("t4", T0 + 3, 300_000),
      text("t5", T0 + 4, 5_000),
    ])
    const bytes = { textBytes: 25_000 }
    expect(await store.pruneExecutions(policy, { now, maxBatches: 1, batch: bytes })).toMatchObject({ deleted: 2 })
    expect(await store.pruneExecutions(policy, { now, maxBatches: 1, batch: bytes })).toMatchObject({ deleted: 1 })
    expect(await store.pruneExecutions(policy, { now, maxBatches: 1, batch: bytes })).toMatchObject({ deleted: 1 })
    expect(await kept(["t4", "t5"])).toEqual(["t5"])
  })

  it("never deletes a paused execution; once its resume records the end, it goes with its approvals", async () => {
    const now = T0 + 48 * HOUR
    // the approvals contract's row, at this suite's time
    const approval = (id: string, executionId: string) =>
      approvalRow(id, executionId, { createdAt: T0, expiresAt: T0 + HOUR })
    await store.recordPause(entry("waits", T0, { status: "paused", resultText: null }, 2), approval("a-waits", "waits"))
    await store.recordPause(
      entry("resumed", T0 + 1, { status: "paused", resultText: null }),
      approval("a-resumed", "resumed"),
    )
    await store.decideApproval({
      id: "a-resumed",
      status: "approved",
      note: null,
      by: null,
      at: T0 + 2,
      leaseUntil: T0 + 3,
    })
    await store.completeResume({ approvalId: "a-resumed", entry: entry("resumed", T0 + 1, {}, 1), at: T0 + 4 })
    await store.recordBatch([entry("done", T0 + 5)])

    expect(await store.pruneExecutions({ maxAgeMs: HOUR, maxExecutions: 0 }, { now })).toMatchObject({ deleted: 2 })
    expect(await kept(["waits", "resumed", "done"])).toEqual(["waits"])
    expect((await store.getExecution("waits"))?.calls).toHaveLength(2)
    expect(await store.getApproval("a-waits")).toMatchObject({ status: "pending" })
    expect(await store.getApproval("a-resumed")).toBeNull()
    expect(await store.pruneExecutions({ maxExecutions: 0 }, { now: now + 100 * HOUR })).toMatchObject({ deleted: 0 })
  })

  it("stops between batches when its signal is aborted, and does nothing without a bound", async () => {
    await store.recordBatch([entry("s1", T0), entry("s2", T0 + 1)])
    const stopped = new AbortController()
    stopped.abort()
    expect(await store.pruneExecutions({ maxExecutions: 0 }, { now: T0, signal: stopped.signal })).toEqual({
      deleted: 0,
      batches: 0,
      done: false,
    })
    expect(await store.pruneExecutions({}, { now: T0 + 100 * HOUR })).toEqual({ deleted: 0, batches: 0, done: true })
    expect(await kept(["s1", "s2"])).toEqual(["s1", "s2"])
  })
}
