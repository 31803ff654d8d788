/**
 * `executor.execute`: one script run end to end — limits, the tool bridge, rendering, and the
 * execution record. The response is a value whatever the script did; only our own defects become
 * `internal_error`, with a correlation id.
 */
import { internalError } from "../errors.js"
import type { Logger, Outcome } from "../errors.js"
import { DEFAULT_INLINE_CAP, inlineText } from "../render/render-for-model.js"
import { renderResult } from "../render/render-result.js"
import { ToolErrorCodes } from "../result.js"
import type { ContentBlock } from "../result.js"
import { RunErrorCodes } from "../seams.js"
import type {
  CodeRuntime,
  LogEntry,
  RunError,
  RunLimits,
  SourcePlugin,
  TelemetrySink,
  ToolCallRecord,
} from "../seams.js"
import type { CatalogStore } from "../catalog/rows.js"
import type { SourcesService } from "../catalog/sources-service.js"
import { timeOrderedId } from "../ids.js"
import { OPEN_CALLER } from "../auth/scopes.js"
import type { Caller } from "../auth/scopes.js"
import { createToolInvoker } from "./tool-invoker.js"
import { createShapeObserver } from "./shape-observer.js"
import { callerTag } from "../shapes/map-like.js"
import { createGroupCommit } from "./group-commit.js"
import { endSpan, startExecutionSpan } from "./tracing.js"
import { driverMessage, isDatabaseFault } from "../catalog/database-fault.js"
import { executeRequest, parseRequest } from "../request-schemas.js"
import type { ExecuteRequest } from "../request-schemas.js"
import { LIMIT_KEYS, defaultLimits } from "./limits.js"

/**
 * `stored` says whether the execution's record was committed. Only then does the response name it: `executionId`
 * is present exactly when `stored` is true, so no response points at a record that does not exist. When it is
 * false, `warning` says why, and a result cut at the inline cap says that the rest could not be kept.
 */
export type ExecuteResponse =
  | {
      executionId?: string
      stored: boolean
      warning?: string
      ok: true
      result: unknown
      /** the result as model-facing text (media blocks taken out), cut at the inline cap */
      text: string
      truncated?: { totalLines: number; totalChars: number }
      /** image and audio blocks the script returned, for surfaces that carry them natively (MCP) */
      media?: ContentBlock[]
      logs: LogEntry[]
    }
  | { executionId?: string; stored: boolean; warning?: string; ok: false; error: RunError; logs: LogEntry[] }

export interface ExecutorOptions {
  store: CatalogStore
  sources: Pick<SourcesService, "ensureFresh" | "markStale">
  runtime: CodeRuntime
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** where execution records are written (default: the store), in batches of executions that finish together */
  telemetry?: TelemetrySink
  /** the server's limits; a request may lower any of them, never raise one */
  limits?: Partial<RunLimits>
  /** characters of result text returned inline; the whole text is always stored with the execution */
  inlineCap?: number
  now?: () => number
}

/**
 * Logs why a record failed and says it in a few safe words: a database fault (locked, file gone) in its own
 * message, any other failure as the driver's error with a correlation id to find it in the log. Never a failed
 * query's text, which holds its parameters (the script, the result).
 */
const recordFailure = (logger: Logger, cause: unknown) => {
  const correlationId = internalError(logger, "execution record", cause).correlationId
  const reason = isDatabaseFault(cause) ? cause.message : driverMessage(cause)
  return `${reason}; correlation id ${correlationId}`
}

export const createExecutor = ({
  store,
  sources,
  runtime,
  plugins,
  logger,
  telemetry = store,
  limits,
  inlineCap = DEFAULT_INLINE_CAP,
  now = Date.now,
}: ExecutorOptions) => {
  const serverLimits: RunLimits = { ...defaultLimits, ...limits }
  /** executions started and not yet recording: a batch of records may wait briefly for them (group-commit.ts) */
  let running = 0
  const records = createGroupCommit(telemetry, { running: () => running })
  const invokeTool = createToolInvoker({ store, sources, plugins, logger, now })

  /** The execute request's one definition checks it, for HTTP and MCP alike (../request-schemas.ts). */
  const parse = (body: unknown): Outcome<ExecuteRequest> => parseRequest(executeRequest, body)

  /** A request may lower any limit, never raise one past the server's. */
  const limitsFor = (request: ExecuteRequest): RunLimits => {
    const merged = { ...serverLimits }
    for (const key of LIMIT_KEYS) {
      const asked = key === "timeoutMs" ? (request.limits?.timeoutMs ?? request.timeoutMs) : request.limits?.[key]
      if (asked !== undefined) merged[key] = Math.min(asked, serverLimits[key])
    }
    return merged
  }

  /** `by`: who asked; its key is recorded with the execution, and only that key (or admin) reads it back */
  const execute = async (
    request: ExecuteRequest,
    signal?: AbortSignal,
    by: Pick<Caller, "keyId"> = OPEN_CALLER,
  ): Promise<ExecuteResponse> => {
    const executionId = timeOrderedId()
    const startedAt = now()
    running++
    const runLimits = limitsFor(request)
    const deadline = startedAt + runLimits.timeoutMs
    const calls: ToolCallRecord[] = []
    const shapes = createShapeObserver(now, callerTag(by.keyId))
    const span = startExecutionSpan(executionId)
    // the tool calls' signal: the caller hanging up aborts it, and so does the run ending, so tool calls still
    // in flight are cancelled upstream instead of outliving their execution. Made at the first tool call: a
    // controller and its listener cost microseconds, and most scripts that call no tool need neither.
    let lifetime: AbortController | undefined
    let ended = false
    const onCallerAbort = () => lifetime!.abort(signal!.reason)
    const toolSignal = () => {
      if (lifetime) return lifetime.signal
      lifetime = new AbortController()
      if (ended) lifetime.abort(new Error("the execution ended"))
      else if (signal?.aborted) lifetime.abort(signal.reason)
      else signal?.addEventListener("abort", onCallerAbort, { once: true })
      return lifetime.signal
    }
    const inflight = new Map<number, { path: string; startedAt: number }>()
    let nextCallId = 0
    const ctx = {
      executionId,
      remainingMs: () => deadline - now(),
      get signal() {
        return toolSignal()
      },
      span,
      observe: shapes.observe,
      resolved: new Map(),
      begin: (path: string, at: number) => {
        inflight.set(++nextCallId, { path, startedAt: at })
        return nextCallId
      },
      record: (callId: number, call: ToolCallRecord) => {
        if (ended || !inflight.delete(callId)) return // cut off when the run ended: already recorded as aborted
        calls.push(call)
      },
    }

    // the runtime is cut off by the caller hanging up; the run's end needs no signal, it is the run ending
    const render = { inlineCap, maxChars: runLimits.maxResultBytes }
    const outcome = await runtime
      .run(request.code, { invoke: (path, args) => invokeTool(path, args, ctx), limits: runLimits, signal, render })
      .catch((cause) => ({
        ok: false as const,
        error: { code: RunErrorCodes.internal, message: internalError(logger, "runtime", cause).message },
        logs: [],
      }))

    ended = true
    running--
    if (lifetime) signal?.removeEventListener("abort", onCallerAbort)
    for (const { path, startedAt: callStarted } of inflight.values()) {
      calls.push({
        executionId,
        toolPath: path,
        encoding: "direct",
        startedAt: callStarted,
        durationMs: now() - callStarted,
        ok: false,
        errorCode: ToolErrorCodes.aborted,
        dataBytes: null,
        outputSchemaError: null,
      })
    }
    lifetime?.abort(new Error("the execution ended"))
    if (!outcome.ok && outcome.error.code === RunErrorCodes.overloaded) {
      // it never ran: nothing to record; the surface answers 429 with Retry-After
      endSpan(span, outcome.error)
      return { stored: false, ok: false, error: outcome.error, logs: [] }
    }
    // a worker pool renders off the main thread: a large value's text takes tens of milliseconds to make
    const rendered = outcome.ok ? (outcome.rendered ?? renderResult(outcome.value, render)) : null
    const fullText = rendered ? rendered.text : null
    endSpan(span, outcome.ok ? null : outcome.error, { "switchboard.tool_calls": calls.length })
    // written after decoding and before the response, in one transaction with the records of executions that
    // finished alongside: the response names only a committed record, and says so when there is none
    let notStored: string | undefined
    await Promise.all([
      records
        .record(
          {
            id: executionId,
            code: request.code,
            status: outcome.ok ? "ok" : "error",
            startedAt,
            durationMs: now() - startedAt,
            resultText: fullText,
            errorCode: outcome.ok ? null : outcome.error.code,
            errorMessage: outcome.ok ? null : outcome.error.message,
            logs: outcome.logs,
            toolCallCount: calls.length,
            keyId: by.keyId,
          },
          calls,
        )
        .catch((cause) => {
          notStored = `this execution's record was not stored (${recordFailure(logger, cause)}), so it cannot be read back later`
        }),
      shapes.flush(store).catch((cause) => internalError(logger, "shape observation", cause)),
    ])
    const named = notStored === undefined ? { executionId, stored: true } : { stored: false, warning: notStored }
    if (!outcome.ok) return { ...named, ok: false, error: outcome.error, logs: outcome.logs }
    const inline = inlineText(fullText!, notStored === undefined ? executionId : null, inlineCap)
    const response: ExecuteResponse = {
      ...named,
      ok: true,
      result: outcome.value,
      text: inline.text,
      logs: outcome.logs,
    }
    if (inline.truncated) response.truncated = { totalLines: inline.totalLines, totalChars: inline.totalChars }
    const media = [...(outcome.emitted ?? []), ...rendered!.media]
    if (media.length > 0) response.media = media
    return response
  }

  return { parse, execute, limits: serverLimits }
}

export type Executor = ReturnType<typeof createExecutor>
