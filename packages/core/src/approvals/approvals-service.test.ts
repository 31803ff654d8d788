/** The approvals service's wait, over a store in memory and a stand-in executor: what a waiter gets of a resume. */
import { describe, expect, it } from "vitest"
import type { ApprovalRow, CatalogStore, StoredExecution } from "../catalog/rows.js"
import type { ExecuteResponse } from "../executor/response.js"
import { OPEN_CALLER } from "../auth/scopes.js"
import { createApprovalsService } from "./approvals-service.js"

const pending: ApprovalRow = {
  id: "a1",
  executionId: "e1",
  toolPath: "fs.write_file",
  args: {},
  reason: "needs a person",
  ruleId: null,
  status: "pending",
  note: null,
  keyId: null,
  createdAt: 0,
  expiresAt: Date.now() + 60_000,
  decidedAt: null,
  decidedBy: null,
  resumeLeaseUntil: null,
  resumePastPauseAt: null,
  resumedAt: null,
  replay: null,
}

const ended: ExecuteResponse = { executionId: "e1", stored: true, ok: true, result: 1, text: "1", logs: [] }

/** One approval and its execution; the resume records itself when `records` is true, after `resumeMs`. */
const setup = ({ records = true, resumeMs = 20 } = {}) => {
  let approval = { ...pending }
  const store = {
    getApproval: async () => approval,
    getExecution: async () => ({ id: "e1", status: "ok" }) as StoredExecution,
    listApprovals: async () => [],
    decideApproval: async (decision: { status: ApprovalRow["status"]; note: string | null }) => {
      approval = { ...approval, status: decision.status, note: decision.note, decidedAt: 1 }
      return approval
    },
  } as unknown as CatalogStore
  const executor = {
    limits: { timeoutMs: 1_000 },
    resume: () =>
      new Promise<ExecuteResponse>((resolve) =>
        setTimeout(() => {
          if (records) approval = { ...approval, resumedAt: 2 }
          resolve(records ? ended : { ...ended, executionId: undefined, stored: false, warning: "disk full" })
        }, resumeMs),
      ),
  }
  const logger = { error: () => {}, warn: () => {}, info: () => {} }
  // a poll far longer than the resume: only being woken when the resume starts catches its response
  return createApprovalsService({ store, executor: executor as never, logger, pollMs: 10_000 })
}

describe("approvals.wait", () => {
  it("a wait begun before the decision gets the resumed run's own response, though the run ends between polls", async () => {
    const approvals = setup()
    const waiting = approvals.wait(pending, 5_000)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect((await approvals.decide(OPEN_CALLER, "a1", { decision: "approve" })).ok).toBe(true)
    const waited = await waiting
    expect(waited.response).toEqual(ended)
    expect(waited.approval.resumedAt).toBe(2)
    expect(waited.execution).toMatchObject({ id: "e1", status: "ok" })
  })

  it("answers a resume whose record could not be stored with its response, at once", async () => {
    const approvals = setup({ records: false })
    const decided = await approvals.decide(OPEN_CALLER, "a1", { decision: "approve" })
    const started = Date.now()
    const waited = await approvals.wait(decided.ok ? decided.value : pending, 5_000)
    expect(waited.response).toMatchObject({ stored: false, warning: "disk full" })
    expect(waited.execution).toBeUndefined()
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("returns when its signal aborts, still waiting", async () => {
    const approvals = setup()
    const controller = new AbortController()
    const waiting = approvals.wait(pending, 5_000, controller.signal)
    controller.abort()
    expect(await waiting).toEqual({ approval: pending })
  })
})
