/**
 * How a run reaches the model as a `tools/call` result, for `execute` and `resume` alike: the executor's own text
 * (rendered once by core's renderForModel and cut at the inline cap), passed through untouched, never re-rendered
 * or quoted; its logs in a second block; media as native blocks; and `_meta` naming the record. A paused run is
 * not an error: it is waiting for a person, and the text says for what and how to go on.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type * as Catalog from "@switchboard/core/catalog"
import * as Executor from "@switchboard/core/executor"
import * as Render from "@switchboard/core/render"
import type { LogEntry, RunError } from "@switchboard/core"
import { argsPreview, cutNote, escapeUnsafe } from "../args-preview.js"
import { errorResult, textResult } from "./tool-result.js"

/** `_meta` key of an execute (or resume) result: whether its record was stored, and its id when it was */
export const EXECUTION_META = "switchboard/execution"

/** A run that reached a call needing a person's decision: what it waits for. */
export interface PausedRun {
  executionId: string
  approval: Executor.ApprovalSummary
  logs: LogEntry[]
}

const pausedRun = ({ executionId, approval, logs }: Executor.PausedResponse): PausedRun => ({
  executionId,
  approval,
  logs,
})

/** The paused arm of the executor's response, as a run that waits; null for one that ended. */
export const pausedOf = (response: Executor.ExecuteResponse): PausedRun | null =>
  Executor.isPausedResponse(response) ? pausedRun(response) : null

/** What a paused response shows of a stored approval. */
export const summaryOf = (row: Catalog.ApprovalRow): Executor.ApprovalSummary => ({
  id: row.id,
  tool: row.toolPath,
  args: row.args,
  reason: row.reason,
  expiresAt: row.expiresAt,
})

const logsText = (logs: LogEntry[]) => `logs:\n${logs.map((l) => `[${l.level}] ${l.message}`).join("\n")}`
const logsBlock = (logs: LogEntry[]) => (logs.length > 0 ? [logsText(logs)] : [])

/** a stored record's error code is its text: a code of an older or newer build is shown as it is */
export const errorText = (error: Omit<RunError, "code"> & { code: string }) => {
  const at =
    error.line === undefined
      ? ""
      : ` (line ${error.line}${error.column === undefined ? "" : `, column ${error.column}`})`
  return `error (${error.code})${at}: ${error.message}`
}

/** How many characters of a call's arguments a paused text shows; the approval holds them all. */
const ARGS_PREVIEW_CHARS = 1_000

/** where a person reads the whole arguments of an approval */
export const wholeArgsAt = (approvalId: string) =>
  `GET /v1/approvals/${approvalId}, or \`switchboard approvals show ${approvalId}\` on the host`

/** The call a paused text names: the arguments shared fairly between their fields, and what was cut named. */
const waitingLine = (approval: Executor.ApprovalSummary) => {
  const preview = argsPreview(approval.args, ARGS_PREVIEW_CHARS)
  const line = `waiting: ${escapeUnsafe(approval.tool)} with ${preview.text}`
  return preview.cut.length === 0
    ? line
    : `${line}\n${cutNote(preview)}; the whole arguments: ${wholeArgsAt(approval.id)}`
}

const when = (epochMs: number) => new Date(epochMs).toISOString()

/** How a person decides an approval outside the MCP client. */
const howToDecide = (approvalId: string) =>
  `A person approves or declines it: POST /v1/approvals/${approvalId} with {"decision":"approve"} (or "decline", with a "note"), ` +
  `or \`switchboard approvals approve ${approvalId}\` on the host.`

const resumeCall = (executionId: string) => `resume {"executionId":"${executionId}"}`

/**
 * Not an error (isError false): the script did not fail and must not be run again, which would pause a second
 * execution at the same call; it waits, durably, and `resume` gives its end.
 */
export const pausedResult = (
  { executionId, approval, logs }: PausedRun,
  note?: string,
  approvalPage?: (approvalId: string) => string,
): CallToolResult => {
  const result = textResult(
    [
      "paused: the script waits for a person to approve a tool call; it has not failed, and it goes on from here once someone decides." +
        (note ? `\n${note}` : ""),
      waitingLine(approval),
      `reason: ${escapeUnsafe(approval.reason)}`,
      `approval: ${approval.id}, expires ${when(approval.expiresAt)} (undecided by then, the call is declined)`,
      ...(approvalPage ? [`A person decides it in the browser: ${approvalPage(approval.id)}`] : []),
      `execution: ${executionId}`,
      `To go on: ${howToDecide(approval.id)} Then call ${resumeCall(executionId)}: it waits for the decision and returns the script's result.`,
    ].join("\n"),
    ...logsBlock(logs),
  )
  result._meta = { [EXECUTION_META]: { stored: true, executionId, status: "paused", approvalId: approval.id } }
  return result
}

/** A run that ended (or was refused), as execute has always answered it. */
const endedResult = (response: Executor.EndedResponse): CallToolResult => {
  const logs = logsBlock(response.logs)
  // a record that could not be stored is said in the text a model reads, after the result and its logs
  const warning = response.warning === undefined ? [] : [`warning: ${response.warning}`]
  const result = !response.ok
    ? errorResult(errorText(response.error), ...logs, ...warning)
    : response.text === "" && response.media
      ? textResult(...logs, ...warning)
      : textResult(response.text, ...logs, ...warning)
  // images and audio go as native blocks after the text, never as base64 inside it
  if (response.ok && response.media) result.content.push(...(response.media as CallToolResult["content"]))
  result._meta = {
    [EXECUTION_META]: response.stored ? { stored: true, executionId: response.executionId } : { stored: false },
  }
  return result
}

/** The executor's response, whatever it came to. */
export const responseResult = (
  response: Executor.ExecuteResponse,
  note?: string,
  approvalPage?: (approvalId: string) => string,
): CallToolResult =>
  Executor.isPausedResponse(response) ? pausedResult(pausedRun(response), note, approvalPage) : endedResult(response)

/**
 * An execution that ended before this call, or was resumed on another server: its record, the text cut as the run
 * cut it (`inlineCap`, the executor's). A record keeps no media blocks, and no line or column of an error.
 */
export const storedResult = (execution: Catalog.StoredExecution, inlineCap?: number): CallToolResult => {
  const logs = logsBlock(execution.logs)
  const result =
    execution.status === "ok"
      ? textResult(
          Render.inlineText(execution.resultText ?? "", { executionId: execution.id, cap: inlineCap }).text,
          ...logs,
        )
      : errorResult(
          errorText({ code: execution.errorCode ?? "internal_error", message: execution.errorMessage ?? "" }),
          ...logs,
        )
  result._meta = { [EXECUTION_META]: { stored: true, executionId: execution.id } }
  return result
}

/** `resume` ran out of its wait: still pending, or decided and its resumed run not yet recorded. */
export const waitingResult = (approval: Catalog.ApprovalRow): CallToolResult => {
  const state =
    approval.status === "pending"
      ? `approval ${approval.id} of ${approval.toolPath} is not decided yet; it expires ${when(approval.expiresAt)} ` +
        `(undecided by then, the call is declined). ${howToDecide(approval.id)}`
      : `approval ${approval.id} was ${approval.status}, and the resumed run has not been recorded yet.`
  const result = textResult(`still waiting: ${state}\nCall ${resumeCall(approval.executionId)} again to go on waiting.`)
  result._meta = {
    [EXECUTION_META]: {
      stored: true,
      executionId: approval.executionId,
      status: "paused",
      approvalId: approval.id,
    },
  }
  return result
}
