/**
 * A run that stopped at a call needing a person: its record (status `paused`), its calls and its approval are
 * written in one batch, the approval holding what a resume replays (./replay.ts). Only once they are stored is the
 * pause answered; a pause that cannot be stored fails the execution, which is recorded as such if it can be.
 */
import type { ApprovalRow, CatalogStore } from "../catalog/rows.js"
import type { Logger } from "../errors.js"
import { timeOrderedId } from "../ids.js"
import { RunErrorCodes } from "../seams.js"
import type { ExecutionEntry, LogEntry } from "../seams.js"
import type { Execution, Pause } from "./execution.js"
import { recordFailure, totalsOf } from "./record.js"
import type { Recorder } from "./record.js"
import type { ReplayRecord } from "./replay.js"
import type { ApprovalSummary, ExecuteResponse } from "./response.js"
import { endSpan } from "./tracing.js"

/** the default time a paused call waits for a person: an hour */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60 * 1000

export interface PauserOptions {
  store: Pick<CatalogStore, "recordPause" | "completeResume">
  logger: Logger
  /** how long a paused call waits for a person before it counts as declined */
  approvalTtlMs: number
  now: () => number
  /** how a pause that could not be stored is recorded: as a failed run */
  record: Recorder
}

/** Stores a paused run and answers that it waits for a person. */
export type Pauser = (execution: Execution, logs: LogEntry[]) => Promise<ExecuteResponse>

/** The pause as stored: the execution's record, its calls, and the approval that holds what a resume replays. */
const pausedEntries = (execution: Execution, { call, args, policy }: Pause, { logs, at, ttlMs }: PauseMoment) => {
  const { startedAt, durationMs, toolCallCount } = totalsOf(execution, at)
  const replay: ReplayRecord = {
    version: 1,
    code: execution.code,
    limits: execution.limits,
    seed: execution.seed,
    clock: execution.clock,
    calls: execution.recordedCalls(),
    pause: call,
    startedAt,
    runMs: durationMs,
    toolCallCount,
  }
  const approval: ApprovalRow = {
    id: timeOrderedId(),
    executionId: execution.id,
    toolPath: call.path,
    args: args ?? {},
    reason: policy.reason,
    ruleId: policy.rule?.id ?? null,
    status: "pending",
    note: null,
    keyId: execution.keyId,
    createdAt: at,
    expiresAt: at + ttlMs,
    decidedAt: null,
    decidedBy: null,
    resumeLeaseUntil: null,
    resumePastPauseAt: null,
    resumedAt: null,
    replay,
  }
  const entry: ExecutionEntry = {
    execution: {
      id: execution.id,
      code: execution.code,
      status: "paused",
      startedAt,
      durationMs,
      resultText: null,
      errorCode: null,
      errorMessage: null,
      logs,
      toolCallCount,
      keyId: execution.keyId,
      // a paused execution is never pruned (catalog/prune.ts); past its decision, the usual retention applies
      keepUntil: null,
    },
    calls: execution.calls,
  }
  return { approval, entry }
}

/** when the run paused, the logs it wrote, and how long its approval waits */
interface PauseMoment {
  logs: LogEntry[]
  at: number
  ttlMs: number
}

export const createPauser =
  ({ store, logger, approvalTtlMs, now, record }: PauserOptions): Pauser =>
  async (execution, logs) => {
    const pause = execution.paused!
    const { call, policy } = pause
    const at = now()
    const { approval, entry } = pausedEntries(execution, pause, { logs, at, ttlMs: approvalTtlMs })
    endSpan(execution.span, null, { "switchboard.paused": true, "switchboard.tool_calls": execution.calls.length })
    try {
      if (execution.replay)
        await store.completeResume({ approvalId: execution.replay.approvalId, entry, at, next: approval })
      else await store.recordPause(entry, approval)
    } catch (cause) {
      const error = {
        code: RunErrorCodes.internal,
        message: `the run paused for an approval of ${call.path}, but the pause could not be stored (${recordFailure(logger, cause)}), so it cannot be resumed`,
      }
      return record(execution, { ok: false, error, logs })
    }
    const summary: ApprovalSummary = {
      id: approval.id,
      tool: approval.toolPath,
      args: approval.args,
      reason: approval.reason,
      expiresAt: approval.expiresAt,
    }
    const expires = new Date(approval.expiresAt).toISOString()
    return {
      executionId: execution.id,
      stored: true,
      status: "paused",
      message: `paused before ${call.path}: it needs a person's approval (${policy.reason}); approval ${approval.id} expires at ${expires}`,
      approval: summary,
      logs,
    }
  }
