/**
 * Approvals: a person decides a paused call, and the execution resumes by replay (executor/replay.ts) on the
 * server that took the decision, or on any server sharing the catalog once that one's lease has passed. Deciding
 * is compare-and-set in the store, so of two servers (or two people) deciding at once exactly one wins and
 * resumes. An approval nobody decided before its deadline counts as declined: `sweep`, which a host runs at boot
 * and then periodically, marks it expired and resumes it, and picks up any resume a server began and never
 * finished (it died, or had no sandbox free). The service wires its parts: the resumes running here
 * (./local-resumes.ts), the naps of waits (./naps.ts), and a wait for a resume's end (./approval-wait.ts).
 */
import { z } from "zod"
import { Conflict, InvalidInput, NotFound, failure, success } from "../errors.js"
import type { Logger, Outcome } from "../errors.js"
import type { ApprovalRow, ApprovalStatus, CatalogStore } from "../catalog/rows.js"
import type { Caller } from "../auth/scopes.js"
import { canReadExecution } from "../auth/scopes.js"
import { parseRequest } from "../request-schemas.js"
import type { Executor } from "../executor/executor.js"
import { createApprovalWait } from "./approval-wait.js"
import { createLocalResumes } from "./local-resumes.js"
import { createNaps } from "./naps.js"

export const decisionRequest = z.strictObject(
  {
    decision: z
      .enum(["approve", "decline"], { error: '"decision" must be "approve" or "decline"' })
      .describe("approve: the call runs and the script goes on; decline: the call resolves to ok: false, declined"),
    note: z
      .string({ error: '"note" must be a string' })
      .max(2_000, { error: '"note" must be at most 2,000 characters' })
      .optional()
      .describe("why; a decline's note reaches the script in the error's message"),
  },
  { error: 'the body must be a JSON object: {"decision": "approve"} or {"decision": "decline", "note": "why"}' },
)
export type DecisionRequest = z.output<typeof decisionRequest>

/** how many due resumes one sweep takes on */
const SWEEP_BATCH = 16
/** how long a resume holds its approval past the run's own time limit, before another server may take it over */
const LEASE_MARGIN_MS = 60_000
/** how often a wait for another server's resume looks at the store */
const DEFAULT_POLL_MS = 200

export interface ApprovalsOptions {
  store: CatalogStore
  executor: Pick<Executor, "resume" | "limits">
  logger: Logger
  now?: () => number
  pollMs?: number
}

export type { ApprovalWait } from "./approval-wait.js"

export const createApprovalsService = ({
  store,
  executor,
  logger,
  now = Date.now,
  pollMs = DEFAULT_POLL_MS,
}: ApprovalsOptions) => {
  const naps = createNaps()
  const resumes = createLocalResumes({ executor, logger, naps })
  const wait = createApprovalWait({ store, resumes, naps, now, pollMs })
  const { start, settled } = resumes
  const leaseUntil = () => now() + executor.limits.timeoutMs + LEASE_MARGIN_MS

  /** null both when there is none and when it belongs to another key's execution (no oracle for ids) */
  const get = async (caller: Caller, id: string): Promise<ApprovalRow | null> => {
    const approval = await store.getApproval(id)
    return approval && canReadExecution(caller, approval.keyId) ? approval : null
  }

  const list = (caller: Caller, query: { status?: ApprovalStatus; limit: number; executionId?: string }) => {
    if (caller.scope === "admin") return store.listApprovals(query)
    if (caller.keyId === null) return Promise.resolve([])
    return store.listApprovals({ ...query, keyId: caller.keyId })
  }

  /**
   * Decides a pending approval and starts its resume here. NotFound for none the caller may see; Conflict when it
   * was decided already or has expired (which counts as a decline: the sweep resumes it).
   */
  const decide = async (caller: Caller, id: string, body: unknown): Promise<Outcome<ApprovalRow>> => {
    const parsed = parseRequest(decisionRequest, body)
    if (!parsed.ok) return parsed
    const approval = await get(caller, id)
    if (!approval) return failure(new NotFound({ message: `no approval "${id}"` }))
    const at = now()
    const already = () => failure(new Conflict({ message: `approval ${id} was already decided: ${approval.status}` }))
    if (approval.status !== "pending") return already()
    if (approval.expiresAt <= at)
      return failure(
        new Conflict({
          message: `approval ${id} expired at ${new Date(approval.expiresAt).toISOString()}, which counts as a decline`,
        }),
      )
    const { decision, note = null } = parsed.value
    const status = decision === "approve" ? "approved" : "declined"
    const decided = await store.decideApproval({ id, status, note, by: caller.keyId, at, leaseUntil: leaseUntil() })
    if (!decided) {
      const now = await store.getApproval(id)
      return failure(new Conflict({ message: `approval ${id} was decided meanwhile: ${now?.status ?? "gone"}` }))
    }
    void start(decided)
    return success(decided)
  }

  /** Takes on every resume that is due (expired approvals, and resumes a server began and left); resolves with how many. */
  const sweep = async (): Promise<number> => {
    const due = await store.claimResumes(now(), leaseUntil(), SWEEP_BATCH)
    for (const approval of due) void start(approval)
    return due.length
  }

  /**
   * `settled`: resolves once every resume running on this server has ended: a host that lives no longer than a
   * request (a Worker) waits for it before it releases its connections.
   */
  return { get, list, decide, sweep, wait, start, settled }
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>

/** `?wait=30s`: how long a decision waits for the run's end; at most `WAIT_MAX_MS`. */
export const WAIT_MAX_MS = 120_000
const WAIT_PATTERN = /^(\d{1,6})(ms|s|m)?$/

export const parseWait = (text: string): Outcome<number> => {
  const match = WAIT_PATTERN.exec(text.trim())
  const ms = match ? Number(match[1]) * ({ ms: 1, s: 1_000, m: 60_000 }[match[2] ?? "s"] ?? 1_000) : Number.NaN
  if (!(ms <= WAIT_MAX_MS))
    return failure(
      new InvalidInput({
        message: `wait must be a duration such as 30s, 500ms or 2m, at most ${WAIT_MAX_MS / 1000}s (got ${JSON.stringify(text)})`,
      }),
    )
  return success(ms)
}
