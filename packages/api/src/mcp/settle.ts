/**
 * What a run that paused for a person comes to, for `execute` and `resume` alike. Where the client can be asked
 * (./ask-approval.ts), its person decides: the approval is decided as the MCP caller (the person answered in the
 * caller's own client), and the resumed run is awaited and answered in the same tool call; a run that pauses again
 * is asked about again. Where it cannot, or the person gives no answer, the paused text says how to go on.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Executor from "@switchboard/core/executor"
import type * as Approvals from "@switchboard/core/approvals"
import { pausedOf, pausedResult, responseResult, storedResult, summaryOf, waitingResult } from "./run-result.js"
import type { PausedRun } from "./run-result.js"
import type { McpServices, McpToolCall } from "./services.js"

/**
 * How long `resume`, and `execute` once its person answered, waits for the resumed run: under the MCP SDK
 * client's default request timeout (60 s), so the client hears "still waiting" rather than a timeout error.
 */
export const RESUME_WAIT_MS = 50_000

export type Settled =
  /** the executor's own response: the run ended, on this server, within the wait (or never paused) */
  | { kind: "ended"; response: Executor.ExecuteResponse }
  /** the run ended before, or on another server: its stored record */
  | { kind: "stored"; execution: Catalog.StoredExecution }
  /** it waits for a person's decision; `note` says why nobody was asked, or what the asking came to */
  | { kind: "paused"; paused: PausedRun; note?: string }
  /** the wait ran out: the approval still pending, or decided and its resumed run not recorded yet */
  | { kind: "waiting"; approval: Catalog.ApprovalRow }

export const settledOf = (response: Executor.ExecuteResponse): Settled => {
  const paused = pausedOf(response)
  return paused ? { kind: "paused", paused } : { kind: "ended", response }
}

/** What a wait on an approval came to. */
export const settledOfWait = (waited: Approvals.ApprovalWait): Settled => {
  if (waited.response) return settledOf(waited.response)
  const { execution, next } = waited
  if (execution && execution.status !== "paused") return { kind: "stored", execution }
  if (execution && next)
    return { kind: "paused", paused: { executionId: execution.id, approval: summaryOf(next), logs: execution.logs } }
  return { kind: "waiting", approval: waited.approval }
}

export const resultOf = (settled: Settled, services: McpServices): CallToolResult => {
  switch (settled.kind) {
    case "ended":
      return responseResult(settled.response, undefined, services.approvalPage)
    case "stored":
      return storedResult(settled.execution, services.executor.inlineCap)
    case "paused":
      return pausedResult(settled.paused, settled.note, services.approvalPage)
    case "waiting":
      return waitingResult(settled.approval)
  }
}

/** Waits, bounded, for the approval's resumed run to be recorded. */
export const awaitResume = async (services: McpServices, approval: Catalog.ApprovalRow, signal: AbortSignal) =>
  settledOfWait(await services.approvals.wait(approval, services.resumeWaitMs ?? RESUME_WAIT_MS, signal))

/**
 * Decides as the person answered, and waits for the resumed run. Decided by someone else meanwhile, or expired
 * (a decline, which the host's sweep resumes): its resume is awaited all the same.
 */
const decideAndAwait = async (
  { services, caller, signal }: McpToolCall,
  paused: PausedRun,
  decision: Approvals.DecisionRequest,
): Promise<Settled> => {
  const decided = await services.approvals.decide(caller, paused.approval.id, decision)
  if (decided.ok) return awaitResume(services, decided.value, signal)
  const approval = await services.approvals.get(caller, paused.approval.id)
  if (!approval) return { kind: "paused", paused, note: `Your decision was not taken: ${decided.error.message}.` }
  return awaitResume(services, approval, signal)
}

/** Asks the person while the run is paused and the client can ask; then renders what it came to. */
export const settle = async (call: McpToolCall, settled: Settled): Promise<CallToolResult> => {
  const { services, ask, signal } = call
  let state = settled
  // a note means the asking is over for this call: the person gave no answer, or their decision was not taken
  while (state.kind === "paused" && state.note === undefined && ask && !signal.aborted) {
    const answer = await ask(state.paused.approval, signal)
    if (!answer.ok) {
      state = { ...state, note: `${answer.why} The approval is still pending.` }
      break
    }
    state = await decideAndAwait(call, state.paused, answer.decision)
  }
  return resultOf(state, services)
}
