/**
 * A paused execution resumed by replay (./replay.ts): its script runs again from the start, its recorded calls
 * answered from the record, and the paused call run (approved) or resolved to `declined`. The execution's record
 * is overwritten with the end, or with the next pause.
 */
import { callerOf, hasScope } from "../auth/scopes.js"
import type { ApprovalRow, CatalogStore } from "../catalog/rows.js"
import type { Overloaded } from "../errors.js"
import { RunErrorCodes } from "../seams.js"
import type { RunErrorCode, RunLimits } from "../seams.js"
import { Execution } from "./execution.js"
import type { CallTool } from "./execution.js"
import { limitsWithin } from "../limits.js"
import type { Recorder } from "./record.js"
import { isReplayRecord } from "./replay.js"
import type { ReplayDecision, ReplayRecord } from "./replay.js"
import type { ExecuteResponse } from "./response.js"
import type { Runner } from "./run.js"

export interface ResumerOptions {
  store: Pick<CatalogStore, "passPause" | "listApiKeys">
  /** the server's limits: a resume runs under the limits it paused with, within these */
  serverLimits: RunLimits
  callTool: CallTool
  now: () => number
  runner: Runner
  record: Recorder
}

/**
 * Resumes the execution an approval paused. `Overloaded` when no sandbox has room: nothing changed, and the
 * resume is tried again once its lease passes.
 */
export type Resumer = (approval: ApprovalRow, signal?: AbortSignal) => Promise<ExecuteResponse | Overloaded>

/** Why a resume that an earlier one took past its pause is not run again. */
const interruptedMessage = (approval: ApprovalRow, record: ReplayRecord) => {
  const passed = new Date(approval.resumePastPauseAt!).toISOString()
  const what =
    approval.status === "approved"
      ? `the approved call to ${record.pause.path} was made`
      : `${record.pause.path} was answered declined`
  return (
    `a resume of this execution went past its pause at ${passed} (${what}) on a server that did not record its end ` +
    "(it stopped, or the database failed): it is not run again, so no call is made twice; whether the calls it " +
    "made took effect is not known here"
  )
}

const decisionOf = (approval: ApprovalRow): ReplayDecision =>
  approval.status === "approved"
    ? { approved: true }
    : { approved: false, note: approval.note, expired: approval.status === "expired" }

export const createResumer = ({ store, serverLimits, callTool, now, runner, record }: ResumerOptions): Resumer => {
  /** why the key that made a run may not have its resume run (revoked, gone, or without execute); undefined: it may */
  const keyMayNotResume = async (keyId: string | null): Promise<string | undefined> => {
    if (keyId === null) return undefined
    const key = (await store.listApiKeys()).find((row) => row.id === keyId)
    if (key && key.revokedAt === null && hasScope(callerOf(key), "execute")) return undefined
    const why = !key ? "was deleted" : key.revokedAt !== null ? "was revoked" : "may no longer execute"
    return `the API key that ran this execution (${keyId}) ${why} while it waited for a person: the resume calls nothing on its behalf`
  }

  return async (approval, signal) => {
    if (!isReplayRecord(approval.replay))
      throw new Error(`approval ${approval.id} holds no replay record this build can read`)
    // a copy: the execution consumes its calls as it replays them
    const replayed: ReplayRecord = { ...approval.replay, calls: [...approval.replay.calls] }
    const execution = new Execution({
      code: replayed.code,
      // the limits it paused under, within this server's: a lease (this server's time limit and a margin) outlasts it
      limits: limitsWithin(serverLimits, replayed.limits),
      callerSignal: signal,
      keyId: approval.keyId,
      callTool,
      now,
      id: approval.executionId,
      replay: {
        record: replayed,
        decision: decisionOf(approval),
        approvalId: approval.id,
        passPause: () => store.passPause(approval.id, now()),
      },
    })
    const endWith = (code: RunErrorCode, message: string) => {
      execution.end()
      return record(execution, { ok: false, error: { code, message }, logs: [] })
    }
    // an earlier resume made the paused call (or answered it declined) and its end was never recorded: running
    // again would make that call, and every one after it, twice
    if (approval.resumePastPauseAt !== null)
      return endWith(RunErrorCodes.resumeInterrupted, interruptedMessage(approval, replayed))
    // the run acts for its key: a key revoked (or left without execute) while it waited gets nothing more done
    const keyRefused = await keyMayNotResume(approval.keyId)
    if (keyRefused) return endWith(RunErrorCodes.keyRevoked, keyRefused)
    return runner.run(execution)
  }
}
