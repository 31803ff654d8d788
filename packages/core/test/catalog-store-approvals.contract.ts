/**
 * The store contract's approvals, run by every implementation within catalogStoreContract: a pause and a resume's
 * end are each written whole or not at all, a decision and a claim are compare-and-set (two stores on one
 * database never both win a row), and what a resume replays reads back exactly as it was written.
 */
import { beforeEach, expect, it } from "vitest"
import { isResumeConflict } from "../src/catalog/approval-rows.js"
import type { ApprovalRow } from "../src/catalog/rows.js"
import type { CatalogStore, ExecutionEntry, ExecutionRecord } from "../src/index.js"
import { call, run } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const T0 = 1_700_000_000_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE

export const approval = (id: string, executionId: string, extra: Partial<ApprovalRow> = {}): ApprovalRow => ({
  id,
  executionId,
  toolPath: "fs.delete",
  args: { path: "/tmp/x", recursive: true },
  reason: "destructive: deletes files",
  ruleId: null,
  status: "pending",
  note: null,
  keyId: null,
  createdAt: T0,
  expiresAt: T0 + HOUR,
  decidedAt: null,
  decidedBy: null,
  resumeLeaseUntil: null,
  resumePastPauseAt: null,
  resumedAt: null,
  replay: { seed: "00000000000000ff", results: [{ ok: true, data: { a: 1 } }] },
  ...extra,
})

export const paused = (id: string, calls = 0, extra: Partial<ExecutionRecord> = {}): ExecutionEntry => ({
  execution: { ...run(id), status: "paused", resultText: null, toolCallCount: calls, ...extra },
  calls: Array.from({ length: calls }, (_, i) => call(id, i)),
})

export const catalogStoreApprovalsContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })
  /** an execution paused at one approval, decided `approved` (lease until T0) or left as `extra` says */
  const pausedAt = async (id: string, extra: Partial<ApprovalRow> = {}) => {
    await store.recordPause(paused(`e-${id}`), approval(id, `e-${id}`, extra))
  }

  it("recordPause stores the execution as paused with its calls and its approval", async () => {
    const entry = paused("e1", 2, { keyId: "key-1", durationMs: 7 })
    const row = approval("a1", "e1", { keyId: "key-1", ruleId: "rule-1" })
    await store.recordPause(entry, row)
    expect(await store.getExecution("e1")).toEqual({ ...entry.execution, calls: entry.calls })
    expect(await store.getApproval("a1")).toEqual(row)
    expect(await store.getApproval("nope")).toBeNull()
    expect((await store.listExecutions({ limit: 5, status: "paused" })).executions).toMatchObject([
      { id: "e1", status: "paused" },
    ])
  })

  it("what a resume replays and the call's arguments read back exactly: key order, NUL, lone surrogates, scalars", async () => {
    const replay = JSON.parse('{"z":1,"a":{"y":"\\u0000","b":[3,2,1]},"m":"\\ud800","n":1e300,"__proto__":{"p":1}}')
    const cases: [string, unknown][] = [
      ["object", { b: 1, a: "\u0000" }],
      ["string of digits", "123"],
      ["string", "hello"],
      ["number", 42],
      ["true", true],
      ["array", [{ b: 2, a: 1 }]],
      ["without arguments", undefined],
    ]
    for (const [name, args] of cases) {
      await store.recordPause(paused(`e-${name}`), approval(`a-${name}`, `e-${name}`, { args, replay }))
      const stored = await store.getApproval(`a-${name}`)
      expect(JSON.stringify(stored?.args)).toBe(JSON.stringify(args ?? null))
      expect(JSON.stringify(stored?.replay)).toBe(JSON.stringify(replay))
    }
  })

  it("a pause whose batch fails writes none of it; a pause that is not `paused`, or of another execution, is refused", async () => {
    await store.recordPause(paused("e1"), approval("a1", "e1"))
    await expect(store.recordPause(paused("e2", 3), approval("a1", "e2"))).rejects.toThrow()
    expect(await store.getExecution("e2")).toBeNull()
    await expect(store.recordPause({ execution: run("e3"), calls: [] }, approval("a3", "e3"))).rejects.toThrow(
      RangeError,
    )
    await expect(store.recordPause(paused("e4"), approval("a4", "e3"))).rejects.toThrow(RangeError)
    expect(await store.getExecution("e3")).toBeNull()
    expect(await store.getApproval("a3")).toBeNull()
  })

  it("completeResume overwrites the record, adds the new calls, sets resumedAt, and inserts the next approval", async () => {
    // a result in parts where the dialect cuts at 64 KiB: the rewrite must leave none of them behind
    await store.recordPause(paused("e1", 2, { keyId: "k", resultText: "é".repeat(300_000) }), approval("a1", "e1"))
    await store.decideApproval({
      id: "a1",
      status: "approved",
      note: "ok",
      by: "admin",
      at: T0 + 1,
      leaseUntil: T0 + MINUTE,
    })

    const again: ExecutionEntry = {
      execution: { ...paused("e1").execution, keyId: "k", toolCallCount: 3, durationMs: 20 },
      calls: [call("e1", 2)],
    }
    const next = approval("a2", "e1", { createdAt: T0 + 2, toolPath: "fs.rmdir", keyId: "k" })
    await store.completeResume({ approvalId: "a1", entry: again, at: T0 + 3, next })
    const all = [0, 1, 2].map((i) => call("e1", i))
    expect(await store.getExecution("e1")).toEqual({ ...again.execution, calls: all })
    expect(await store.getApproval("a1")).toMatchObject({ status: "approved", resumedAt: T0 + 3 })
    expect(await store.getApproval("a2")).toEqual(next)

    await store.decideApproval({
      id: "a2",
      status: "declined",
      note: "no",
      by: "admin",
      at: T0 + 4,
      leaseUntil: T0 + MINUTE,
    })
    const final: ExecutionEntry = {
      execution: {
        ...run("e1"),
        status: "error",
        resultText: null,
        errorCode: "tool_declined",
        errorMessage: "no",
        keyId: "k",
        toolCallCount: 4,
        durationMs: 30,
        logs: [{ level: "log", message: "resumed" }],
      },
      calls: [call("e1", 3)],
    }
    await store.completeResume({ approvalId: "a2", entry: final, at: T0 + 5 })
    expect(await store.getExecution("e1")).toEqual({ ...final.execution, calls: [...all, call("e1", 3)] })
    expect(await store.getApproval("a2")).toMatchObject({ status: "declined", resumedAt: T0 + 5 })
    expect((await store.listApprovals({ limit: 10 })).map((a) => a.id)).toEqual(["a2", "a1"])
  })

  it("a resume recorded already, or of an approval not stored, is a ResumeConflict and writes nothing", async () => {
    await pausedAt("a1", { status: "approved" })
    const done: ExecutionEntry = { execution: { ...run("e-a1"), toolCallCount: 1 }, calls: [call("e-a1", 0)] }
    await store.completeResume({ approvalId: "a1", entry: done, at: T0 + 1 })
    const second = { execution: { ...run("e-a1"), resultText: "2" }, calls: [call("e-a1", 1)] }
    const refused = await store
      .completeResume({ approvalId: "a1", entry: second, at: T0 + 2, next: approval("a9", "e-a1") })
      .catch((e: unknown) => e)
    expect(isResumeConflict(refused)).toBe(true)
    expect(await store.getExecution("e-a1")).toEqual({ ...done.execution, calls: done.calls })
    expect(await store.getApproval("a1")).toMatchObject({ resumedAt: T0 + 1 })
    expect(await store.getApproval("a9")).toBeNull()
    expect(
      isResumeConflict(
        await store.completeResume({ approvalId: "gone", entry: done, at: T0 + 3 }).catch((e: unknown) => e),
      ),
    ).toBe(true)
    // another execution's approval is the caller's mistake
    await pausedAt("b1", { status: "approved" })
    await expect(store.completeResume({ approvalId: "b1", entry: done, at: T0 + 4 })).rejects.toThrow(RangeError)
  })

  it("decideApproval is compare-and-set: once only, approved or declined up to the deadline, expired only past it", async () => {
    await pausedAt("a1")
    const approved = await store.decideApproval({
      id: "a1",
      status: "approved",
      note: "go",
      by: "k1",
      at: T0 + 5,
      leaseUntil: T0 + 99,
    })
    expect(approved).toEqual({
      ...approval("a1", "e-a1"),
      status: "approved",
      note: "go",
      decidedAt: T0 + 5,
      decidedBy: "k1",
      resumeLeaseUntil: T0 + 99,
    })
    expect(
      await store.decideApproval({
        id: "a1",
        status: "declined",
        note: null,
        by: "k2",
        at: T0 + 6,
        leaseUntil: T0 + 99,
      }),
    ).toBeNull()
    expect(await store.getApproval("a1")).toEqual(approved)
    expect(
      await store.decideApproval({ id: "nope", status: "approved", note: null, by: null, at: T0, leaseUntil: T0 + 1 }),
    ).toBeNull()

    await pausedAt("a2")
    const deadline = T0 + HOUR
    expect(
      await store.decideApproval({
        id: "a2",
        status: "expired",
        note: null,
        by: null,
        at: deadline,
        leaseUntil: deadline + 1,
      }),
    ).toBeNull()
    expect(
      await store.decideApproval({
        id: "a2",
        status: "approved",
        note: null,
        by: "k1",
        at: deadline + 1,
        leaseUntil: deadline + 2,
      }),
    ).toBeNull()
    expect(
      await store.decideApproval({
        id: "a2",
        status: "expired",
        note: null,
        by: null,
        at: deadline + 1,
        leaseUntil: deadline + 2,
      }),
    ).toMatchObject({
      status: "expired",
      decidedAt: deadline + 1,
      resumeLeaseUntil: deadline + 2,
    })
    expect(
      await store.decideApproval({
        id: "a2",
        status: "declined",
        note: null,
        by: "k1",
        at: deadline,
        leaseUntil: deadline + 1,
      }),
    ).toBeNull()

    await pausedAt("a3")
    expect(
      await store.decideApproval({
        id: "a3",
        status: "declined",
        note: "no",
        by: null,
        at: deadline,
        leaseUntil: deadline + 1,
      }),
    ).toMatchObject({
      status: "declined",
      note: "no",
    })
  })

  it("two stores deciding one approval at once: exactly one wins", async () => {
    const other = subject().second()
    for (let i = 0; i < 5; i++) {
      await pausedAt(`r${i}`)
      const answers = await Promise.all([
        store.decideApproval({ id: `r${i}`, status: "approved", note: null, by: "k1", at: T0 + 1, leaseUntil: T0 + 9 }),
        other.decideApproval({ id: `r${i}`, status: "declined", note: null, by: "k2", at: T0 + 1, leaseUntil: T0 + 9 }),
      ])
      expect(answers.filter((answer) => answer !== null)).toHaveLength(1)
      const winner = answers.find((answer) => answer !== null)!
      expect(await store.getApproval(`r${i}`)).toEqual(winner)
    }
  })

  it("passPause is compare-and-set: one resume passes the pause, never a second, nor one after the end was recorded", async () => {
    const other = subject().second()
    await pausedAt("p1")
    const answers = await Promise.all([store.passPause("p1", T0 + 5), other.passPause("p1", T0 + 6)])
    expect(answers.filter(Boolean)).toHaveLength(1)
    expect((await store.getApproval("p1"))?.resumePastPauseAt).toBe(answers[0] ? T0 + 5 : T0 + 6)
    expect(await store.passPause("p1", T0 + 7)).toBe(false)
    await pausedAt("p2")
    await store.completeResume({
      approvalId: "p2",
      entry: { ...paused("e-p2"), execution: { ...run("e-p2") } },
      at: T0 + 8,
    })
    expect(await store.passPause("p2", T0 + 9)).toBe(false)
    expect(await store.passPause("nope", T0 + 9)).toBe(false)
  })

  it("claimResumes expires pending approvals past their deadline, claims what is due oldest first, and holds it until the lease ends", async () => {
    const at = T0 + 2 * HOUR
    const lease = at + MINUTE
    await pausedAt("waiting", { createdAt: T0 + 1, expiresAt: at + HOUR })
    await pausedAt("lapsed", { createdAt: T0 + 2, expiresAt: at - 1 })
    await pausedAt("approved", { createdAt: T0 + 3, status: "approved", decidedAt: T0 + 9, resumeLeaseUntil: at - 1 })
    await pausedAt("held", { createdAt: T0 + 4, status: "declined", decidedAt: T0 + 9, resumeLeaseUntil: at + 10 })
    await pausedAt("resumed", { createdAt: T0 + 5, status: "approved", resumedAt: T0 + 9 })
    await pausedAt("fresh", { createdAt: T0 + 6, status: "approved", decidedAt: T0 + 9 })

    const first = await store.claimResumes(at, lease, 2)
    expect(first).toEqual([
      {
        ...approval("lapsed", "e-lapsed", { createdAt: T0 + 2, expiresAt: at - 1 }),
        status: "expired",
        decidedAt: at,
        resumeLeaseUntil: lease,
      },
      expect.objectContaining({ id: "approved", status: "approved", decidedAt: T0 + 9, resumeLeaseUntil: lease }),
    ])
    expect((await store.claimResumes(at, lease, 10)).map((a) => a.id)).toEqual(["fresh"])
    expect(await store.claimResumes(at, lease, 10)).toEqual([])
    expect(await store.getApproval("waiting")).toMatchObject({ status: "pending", resumeLeaseUntil: null })

    // the held one once its lease has passed; the claimed ones only once theirs has
    expect((await store.claimResumes(at + 11, lease + 1, 10)).map((a) => a.id)).toEqual(["held"])
    expect(await store.claimResumes(lease, lease + MINUTE, 10)).toEqual([])
    expect((await store.claimResumes(lease + 1, lease + MINUTE, 10)).map((a) => a.id)).toEqual([
      "lapsed",
      "approved",
      "fresh",
    ])
    expect(await store.getApproval("resumed")).toMatchObject({ resumeLeaseUntil: null })
    await expect(store.claimResumes(at, at, 1)).rejects.toThrow(RangeError)
    await expect(store.claimResumes(at, lease, 0)).rejects.toThrow(RangeError)
  })

  it("stores claiming at once never get the same approval", async () => {
    const claimers = [store, subject().second(), subject().second()]
    const ids = Array.from({ length: 24 }, (_, i) => `c${String(i).padStart(2, "0")}`)
    for (const id of ids) await pausedAt(id, { status: "approved", createdAt: T0 + Number(id.slice(1)) })
    const claimed: string[] = []
    for (let round = 0; round < 10 && claimed.length < ids.length; round++) {
      const answers = await Promise.all(claimers.map((claimer) => claimer.claimResumes(T0, T0 + MINUTE, 5)))
      for (const answer of answers) claimed.push(...answer.map((a) => a.id))
    }
    expect(claimed.sort()).toEqual(ids)
  })

  it("listApprovals filters by status and key, newest first, at most `limit`", async () => {
    await pausedAt("k1-old", { keyId: "k1", createdAt: T0 + 1 })
    await pausedAt("k2", { keyId: "k2", createdAt: T0 + 2 })
    await pausedAt("k1-decided", { keyId: "k1", createdAt: T0 + 3, status: "declined" })
    await pausedAt("k1-new", { keyId: "k1", createdAt: T0 + 4 })
    await pausedAt("none", { createdAt: T0 + 4 })
    const list = async (query: Omit<Parameters<CatalogStore["listApprovals"]>[0], "limit">, limit = 10) =>
      (await store.listApprovals({ ...query, limit })).map((a) => a.id)
    expect(await list({})).toEqual(["none", "k1-new", "k1-decided", "k2", "k1-old"])
    expect(await list({ status: "pending" })).toEqual(["none", "k1-new", "k2", "k1-old"])
    expect(await list({ keyId: "k1" })).toEqual(["k1-new", "k1-decided", "k1-old"])
    expect(await list({ keyId: "k1", status: "pending" })).toEqual(["k1-new", "k1-old"])
    expect(await list({ status: "expired" })).toEqual([])
    expect(await list({ status: "pending" }, 2)).toEqual(["none", "k1-new"])
    expect(await list({ executionId: "e-k2" })).toEqual(["k2"])
    expect(await list({ executionId: "e-k1-decided", status: "pending" })).toEqual([])
    await expect(store.listApprovals({ limit: 0 })).rejects.toThrow(RangeError)
  })
}
