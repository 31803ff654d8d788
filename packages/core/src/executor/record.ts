/**
 * The end of a run: its result rendered, its record written (with the shapes it observed), and the answer made.
 * The answer names only a committed record, and says so when there is none.
 */
import { POINTED_OUTPUT_HOLD_MS } from "../catalog/retention.js"
import { driverMessage, isDatabaseFault } from "../database-fault.js"
import type { CatalogStore } from "../catalog/rows.js"
import { internalError } from "../errors.js"
import type { Logger } from "../errors.js"
import { parseOnRead } from "../render/parse-on-read.js"
import { fitsInline, inlineText } from "../render/render-for-model.js"
import { renderResult } from "../render/render-result.js"
import type { RenderedResult } from "../render/render-result.js"
import type { ExecutionRecord, MetricsSink, RunOutcome } from "../seams.js"
import type { Execution } from "./execution.js"
import type { GroupCommit } from "./group-commit.js"
import type { ExecuteResponse, OkResponse } from "./response.js"
import { endSpan } from "./tracing.js"

export interface RecorderOptions {
  store: Pick<CatalogStore, "completeResume" | "mergeShapes">
  /** where a first run's record goes, with those of executions that finish alongside */
  records: GroupCommit
  metrics: MetricsSink
  logger: Logger
  inlineCap: number
  now: () => number
}

/** Renders a run's outcome, records it, and answers. */
export type Recorder = (execution: Execution, outcome: RunOutcome) => Promise<ExecuteResponse>

/**
 * Logs why a record failed and says it in a few safe words: a database fault (locked, file gone) in its own
 * message, any other failure as the driver's error with a correlation id to find it in the log. Never a failed
 * query's text, which holds its parameters (the script, the result).
 */
export const recordFailure = (logger: Logger, cause: unknown) => {
  const correlationId = internalError(logger, "execution record", cause).correlationId
  const reason = isDatabaseFault(cause) ? cause.message : driverMessage(cause)
  return `${reason}; correlation id ${correlationId}`
}

/** The run's time so far, and the tool calls it recorded, over its runs (a resume adds to the paused run's). */
export const totalsOf = (execution: Execution, now: number) => {
  const before = execution.replay?.record
  return {
    startedAt: before?.startedAt ?? execution.startedAt,
    durationMs: (before?.runMs ?? 0) + (now - execution.startedAt),
    toolCallCount: (before?.toolCallCount ?? 0) + execution.calls.length,
  }
}

export const createRecorder = ({ store, records, metrics, logger, inlineCap, now }: RecorderOptions): Recorder => {
  /** what the record holds of an ended run */
  const recordOf = (execution: Execution, outcome: RunOutcome, fullText: string | null): ExecutionRecord => {
    const { startedAt, durationMs, toolCallCount } = totalsOf(execution, now())
    return {
      id: execution.id,
      code: execution.code,
      status: outcome.ok ? "ok" : "error",
      startedAt,
      durationMs,
      resultText: fullText,
      errorCode: outcome.ok ? null : outcome.error.code,
      errorMessage: outcome.ok ? null : outcome.error.message,
      logs: outcome.logs,
      toolCallCount,
      keyId: execution.keyId,
      // an answer cut at the inline cap tells the model to read the rest: retention keeps it that long at least
      keepUntil: fullText !== null && !fitsInline(fullText, inlineCap) ? now() + POINTED_OUTPUT_HOLD_MS : null,
    }
  }

  /** The answer to an ended run; `notStored` says why its record was not written, when it was not. */
  const answerOf = (
    execution: Execution,
    outcome: RunOutcome,
    { rendered, notStored }: { rendered: RenderedResult | null; notStored: string | undefined },
  ): ExecuteResponse => {
    const named =
      notStored === undefined ? { executionId: execution.id, stored: true } : { stored: false, warning: notStored }
    if (!outcome.ok) return { ...named, ok: false, error: outcome.error, logs: outcome.logs }
    const inline = inlineText(rendered!.text, {
      executionId: notStored === undefined ? execution.id : null,
      cap: inlineCap,
    })
    const response: OkResponse = { ...named, ok: true, result: undefined, text: inline.text, logs: outcome.logs }
    const json = rendered!.json
    // a large value that came from a pool worker as JSON text (outcome.rendered) is rebuilt only if something reads it
    if (json !== undefined && outcome.rendered) parseOnRead(response, "result", json)
    else response.result = outcome.value
    if (json !== undefined) response.resultJson = json
    if (inline.truncated) response.truncated = { totalLines: inline.totalLines, totalChars: inline.totalChars }
    const media = [...(outcome.emitted ?? []), ...rendered!.media]
    if (media.length > 0) response.media = media
    return response
  }

  return async (execution, outcome) => {
    const rendered = outcome.ok
      ? (outcome.rendered ?? renderResult(outcome.value, { inlineCap, maxChars: execution.limits.maxResultBytes }))
      : null
    const fullText = rendered ? rendered.text : null
    const record = recordOf(execution, outcome, fullText)
    const error = outcome.ok ? null : outcome.error
    metrics.executionEnded(error ? "error" : "ok", error && error.code, record.durationMs)
    endSpan(execution.span, error, {
      "switchboard.tool_calls": execution.calls.length,
      // a size, never the text
      "switchboard.result.chars": fullText?.length ?? 0,
    })
    // a first run's record is written in one transaction with those of executions that finished alongside; a
    // resume's overwrites the paused record and closes its approval, in one batch of its own
    const written = execution.replay
      ? store.completeResume({
          approvalId: execution.replay.approvalId,
          entry: { execution: record, calls: execution.calls },
          at: now(),
        })
      : records.record(record, execution.calls)
    let notStored: string | undefined
    await Promise.all([
      written.catch((cause) => {
        notStored = `this execution's record was not stored (${recordFailure(logger, cause)}), so it cannot be read back later`
      }),
      execution.flushShapes(store).catch((cause) => internalError(logger, "shape observation", cause)),
    ])
    return answerOf(execution, outcome, { rendered, notStored })
  }
}
