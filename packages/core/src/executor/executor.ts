/**
 * `executor.execute`: one script run end to end — limits, the tool bridge, rendering, and the
 * execution record. The response is a value whatever the script did; only our own defects become
 * `internal_error`, with a correlation id. The one typed failure is admission: `Overloaded`, before a run starts.
 */
import { Effect } from "effect"
import { Overloaded, internalError } from "../errors.js"
import type { Logger, Outcome } from "../errors.js"
import { DEFAULT_INLINE_CAP, fitsInline, inlineText } from "../render/render-for-model.js"
import { POINTED_OUTPUT_HOLD_MS } from "../catalog/retention.js"
import { renderResult } from "../render/render-result.js"
import { parseOnRead } from "../render/parse-on-read.js"
import type { ContentBlock } from "../result.js"
import { RunErrorCodes, noopMetrics } from "../seams.js"
import type {
  CodeRuntime,
  ExecutionRecord,
  LogEntry,
  MetricsSink,
  RunError,
  RunErrorCode,
  RunLimits,
  RunOutcome,
  SourcePlugin,
  TelemetrySink,
} from "../seams.js"
import type { CatalogStore } from "../catalog/rows.js"
import type { SourcesService } from "../sources/sources-service.js"
import { OPEN_CALLER, callerOf, hasScope } from "../auth/scopes.js"
import type { Caller } from "../auth/scopes.js"
import { Execution } from "./execution.js"
import { createToolInvoker } from "./tool-invoker.js"
import { createGroupCommit } from "./group-commit.js"
import { endSpan } from "./tracing.js"
import { driverMessage, isDatabaseFault } from "../database-fault.js"
import { executeRequest, parseRequest } from "../request-schemas.js"
import type { ExecuteRequest } from "../request-schemas.js"
import { LIMIT_KEYS, defaultLimits } from "../limits.js"
import { createPolicyService } from "../policy/policy-service.js"
import type { PolicyService } from "../policy/policy-service.js"
import type { ApprovalRow } from "../catalog/rows.js"
import { timeOrderedId } from "../ids.js"
import { isReplayRecord } from "./replay.js"
import type { ReplayDecision, ReplayRecord } from "./replay.js"

/** what a paused execution's response shows of its approval */
export interface ApprovalSummary {
  id: string
  /** the tool path the paused call names */
  tool: string
  /** the call's arguments as the script passed them */
  args: unknown
  reason: string
  /** epoch ms: past it, nobody having decided, the call is declined */
  expiresAt: number
}

/** the default time a paused call waits for a person: an hour */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60 * 1000

/** A tag check rather than `instanceof` (STYLE §9). */
const isOverloaded = (value: object): value is Overloaded => (value as { _tag?: unknown })._tag === "Overloaded"

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
      /**
       * `result` as JSON text, when it was made with the result's text (render/render-result.ts, `json`): a
       * surface that writes the result as JSON writes this as it is. `result` is then parsed from it if read.
       */
      resultJson?: string
      /** the result as model-facing text (media blocks taken out), cut at the inline cap */
      text: string
      truncated?: { totalLines: number; totalChars: number }
      /** image and audio blocks the script returned, for surfaces that carry them natively (MCP) */
      media?: ContentBlock[]
      logs: LogEntry[]
    }
  | { executionId?: string; stored: boolean; warning?: string; ok: false; error: RunError; logs: LogEntry[] }
  /**
   * The run reached a call that needs a person's decision and is paused, durably: `approval` names it. Nothing
   * failed and nothing ended, so it has no `ok`: `status` says what happened, and `message` says it in words.
   */
  | {
      executionId: string
      stored: true
      warning?: undefined
      status: "paused"
      message: string
      approval: ApprovalSummary
      logs: LogEntry[]
    }

/** A run that waits for a person: the one arm of `ExecuteResponse` with a `status`. */
export type PausedResponse = Extract<ExecuteResponse, { status: "paused" }>
/** A run that ended, well or not, or was refused: the arms with `ok`. */
export type EndedResponse = Exclude<ExecuteResponse, PausedResponse>

export const isPausedResponse = (response: ExecuteResponse): response is PausedResponse => "status" in response

export interface ExecutorOptions {
  store: CatalogStore
  sources: Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">
  runtime: CodeRuntime
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** where execution records are written (default: the store), in batches of executions that finish together */
  telemetry?: TelemetrySink
  /** counts executions, refusals and tool calls for the host's metrics (default: none) */
  metrics?: MetricsSink
  /** the server's limits; a request may lower any of them, never raise one */
  limits?: Partial<RunLimits>
  /** characters of result text returned inline; the whole text is always stored with the execution */
  inlineCap?: number
  /** the policy rules each call is checked against (default: the store's, approvals on) */
  policies?: PolicyService
  /** how long a paused call waits for a person before it counts as declined (default an hour) */
  approvalTtlMs?: number
  /**
   * false: a run does not replay Date, only Math.random (a test shows what replay is for: a script that puts
   * Date.now() into a tool's arguments diverges without it). Default true.
   */
  replayClock?: boolean
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

/** Why a resume that an earlier one took past its pause is not run again. */
const interruptedMessage = (approval: ApprovalRow, record: ReplayRecord) =>
  `a resume of this execution went past its pause at ${new Date(approval.resumePastPauseAt!).toISOString()} (${
    approval.status === "approved"
      ? `the approved call to ${record.pause.path} was made`
      : `${record.pause.path} was answered declined`
  }) on a server that did not record its end (it stopped, or the database failed): it is not run again, so no call is made twice; whether the calls it made took effect is not known here`

export const createExecutor = ({
  store,
  sources,
  runtime,
  plugins,
  logger,
  telemetry = store,
  metrics = noopMetrics,
  limits,
  inlineCap = DEFAULT_INLINE_CAP,
  policies = createPolicyService({ store }),
  approvalTtlMs = DEFAULT_APPROVAL_TTL_MS,
  replayClock = true,
  now = Date.now,
}: ExecutorOptions) => {
  const serverLimits: RunLimits = { ...defaultLimits, ...limits }
  /** executions started and not yet recording: a batch of records may wait briefly for them (group-commit.ts) */
  let running = 0
  const records = createGroupCommit(telemetry, { running: () => running })
  const callTool = createToolInvoker({ store, sources, plugins, logger, policies, metrics, now })

  /** The execute request's one definition checks it, for HTTP and MCP alike (../request-schemas.ts). */
  const parse = (body: unknown): Outcome<ExecuteRequest> => parseRequest(executeRequest, body)

  /** A request may lower any limit, never raise one past the server's. */
  /** the limits asked for, each within this server's; one not asked for is the server's */
  const within = (asked: Partial<RunLimits> | undefined, timeoutMs?: number): RunLimits => {
    const merged = { ...serverLimits }
    for (const key of LIMIT_KEYS) {
      const value = key === "timeoutMs" ? (asked?.timeoutMs ?? timeoutMs) : asked?.[key]
      if (value !== undefined) merged[key] = Math.min(value, serverLimits[key])
    }
    return merged
  }
  // per execute: no object made for the asking, as before the resume shared this
  const limitsFor = (request: ExecuteRequest): RunLimits => within(request.limits, request.timeoutMs)

  /**
   * Runs one execution to its end, without a fiber: the HTTP route's path, where an Effect at the edge cost a
   * trivial execute about 15 µs of main-thread time (a fiber, an AbortController, a second abort listener on the
   * request's signal; bench/host-ab.ts). A runtime that refuses the run for want of room (`overloaded`: it never
   * started) is the typed admission error, returned as a value, and nothing is recorded. `signal` is the
   * caller's: aborting it aborts the run and the tool calls in flight, and the execution is still recorded.
   */
  const run = async (
    request: ExecuteRequest,
    signal?: AbortSignal,
    by: Pick<Caller, "keyId"> = OPEN_CALLER,
  ): Promise<ExecuteResponse | Overloaded> =>
    runExecution(new Execution(request.code, limitsFor(request), signal, by.keyId, callTool, now))

  /**
   * Resumes a paused execution by replay (./replay.ts): its script runs again from the start, its recorded calls
   * answered from the record, and the paused call run (approved) or resolved to `declined`. The execution's record
   * is overwritten with the end, or with the next pause. `Overloaded` when no sandbox has room: nothing changed,
   * and the resume is tried again once its lease passes.
   */
  const resume = async (approval: ApprovalRow, signal?: AbortSignal): Promise<ExecuteResponse | Overloaded> => {
    if (!isReplayRecord(approval.replay))
      throw new Error(`approval ${approval.id} holds no replay record this build can read`)
    // a copy: the execution consumes its calls as it replays them
    const record: ReplayRecord = { ...approval.replay, calls: [...approval.replay.calls] }
    const decision: ReplayDecision =
      approval.status === "approved"
        ? { approved: true }
        : { approved: false, note: approval.note, expired: approval.status === "expired" }
    const passPause = () => store.passPause(approval.id, now())
    // the limits it paused under, within this server's: a lease (this server's time limit and a margin) outlasts it
    const limits = within(record.limits)
    const execution = new Execution(record.code, limits, signal, approval.keyId, callTool, now, {
      id: approval.executionId,
      replay: { record, decision, approvalId: approval.id, passPause },
    })
    const endWith = (code: RunErrorCode, message: string) => {
      execution.end()
      const outcome = { ok: false as const, error: { code, message }, logs: [] }
      return finish(execution, outcome, { inlineCap, maxChars: limits.maxResultBytes })
    }
    // an earlier resume made the paused call (or answered it declined) and its end was never recorded: running
    // again would make that call, and every one after it, twice
    if (approval.resumePastPauseAt !== null)
      return endWith(RunErrorCodes.resumeInterrupted, interruptedMessage(approval, record))
    // the run acts for its key: a key revoked (or left without execute) while it waited gets nothing more done
    const keyRefused = await keyMayNotResume(approval.keyId)
    if (keyRefused) return endWith(RunErrorCodes.keyRevoked, keyRefused)
    return runExecution(execution)
  }

  /** why the key that made a run may not have its resume run (revoked, gone, or without execute); undefined: it may */
  const keyMayNotResume = async (keyId: string | null): Promise<string | undefined> => {
    if (keyId === null) return undefined
    const key = (await store.listApiKeys()).find((row) => row.id === keyId)
    if (key && key.revokedAt === null && hasScope(callerOf(key), "execute")) return undefined
    const why = !key ? "was deleted" : key.revokedAt !== null ? "was revoked" : "may no longer execute"
    return `the API key that ran this execution (${keyId}) ${why} while it waited for a person: the resume calls nothing on its behalf`
  }

  /** what replays Date, unless turned off: the clock the run being resumed read */
  const determinismOf = (execution: Execution) => {
    const clock = replayClock ? execution.replay?.record.clock : undefined
    return clock ? { seed: execution.seed, clock } : { seed: execution.seed }
  }

  const runExecution = async (execution: Execution): Promise<ExecuteResponse | Overloaded> => {
    running++
    // the runtime is cut off by the caller hanging up, a pause or a divergence; the run's end needs no signal
    // a worker pool renders off the main thread: a large value's text takes tens of milliseconds to make
    const render = { inlineCap, maxChars: execution.limits.maxResultBytes }
    let outcome = await runtime
      .run(execution.code, {
        invoke: execution.invoke,
        limits: execution.limits,
        signal: execution.runSignal,
        render,
        determinism: determinismOf(execution),
      })
      .catch(
        (cause): RunOutcome => ({
          ok: false as const,
          error: { code: RunErrorCodes.internal, message: internalError(logger, "runtime", cause).message },
          logs: [],
        }),
      )
    running--
    execution.end()
    if (!outcome.ok && outcome.error.code === RunErrorCodes.overloaded) {
      metrics.executionRejected()
      endSpan(execution.span, outcome.error)
      return new Overloaded({
        message: outcome.error.message,
        retryAfterSeconds: outcome.error.retryAfterSeconds ?? 1,
      })
    }
    if (execution.paused) return pause(execution, outcome.logs)
    const replay = execution.replay
    if (!execution.diverged && replay && execution.callsMade <= replay.record.pause.index)
      execution.diverged = `the resumed run ended after ${execution.callsMade} tool calls, before it reached the call that was paused (#${replay.record.pause.index + 1}, ${replay.record.pause.path}): the script did not repeat itself, so it cannot be resumed`
    if (execution.diverged)
      outcome = {
        ok: false,
        error: { code: RunErrorCodes.replayDiverged, message: execution.diverged },
        logs: outcome.logs,
      }
    else if (execution.interrupted)
      outcome = {
        ok: false,
        error: { code: RunErrorCodes.resumeInterrupted, message: execution.interrupted },
        logs: outcome.logs,
      }
    return finish(execution, outcome, render)
  }

  /** The run's time so far, and the tool calls it recorded, over its runs (a resume adds to the paused run's). */
  const totals = (execution: Execution) => {
    const before = execution.replay?.record
    return {
      startedAt: before?.startedAt ?? execution.startedAt,
      durationMs: (before?.runMs ?? 0) + (now() - execution.startedAt),
      toolCallCount: (before?.toolCallCount ?? 0) + execution.calls.length,
    }
  }

  /**
   * The run stopped at a call that needs a person: its record (status `paused`), its calls and its approval are
   * written in one batch, the approval holding what a resume replays. Only once they are stored is the pause
   * answered; a pause that cannot be stored fails the execution, which is recorded as such if it can be.
   */
  const pause = async (execution: Execution, logs: LogEntry[]): Promise<ExecuteResponse> => {
    const { call, args, policy } = execution.paused!
    const at = now()
    const { startedAt, durationMs, toolCallCount } = totals(execution)
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
      expiresAt: at + approvalTtlMs,
      decidedAt: null,
      decidedBy: null,
      resumeLeaseUntil: null,
      resumePastPauseAt: null,
      resumedAt: null,
      replay,
    }
    const entry = {
      execution: {
        id: execution.id,
        code: execution.code,
        status: "paused" as const,
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
    endSpan(execution.span, null, { "switchboard.paused": true, "switchboard.tool_calls": execution.calls.length })
    try {
      if (execution.replay) await store.completeResume(execution.replay.approvalId, entry, at, approval)
      else await store.recordPause(entry, approval)
    } catch (cause) {
      const error = {
        code: RunErrorCodes.internal,
        message: `the run paused for an approval of ${call.path}, but the pause could not be stored (${recordFailure(logger, cause)}), so it cannot be resumed`,
      }
      return finish(execution, { ok: false, error, logs }, { inlineCap, maxChars: execution.limits.maxResultBytes })
    }
    const summary: ApprovalSummary = {
      id: approval.id,
      tool: approval.toolPath,
      args: approval.args,
      reason: approval.reason,
      expiresAt: approval.expiresAt,
    }
    return {
      executionId: execution.id,
      stored: true,
      status: "paused",
      message: `paused before ${call.path}: it needs a person's approval (${policy.reason}); approval ${approval.id} expires at ${new Date(approval.expiresAt).toISOString()}`,
      approval: summary,
      logs,
    }
  }

  /** Renders the result and writes the record: the response names only a committed record, and says so when there is none. */
  const finish = async (
    execution: Execution,
    outcome: RunOutcome,
    render: { inlineCap: number; maxChars: number },
  ): Promise<ExecuteResponse> => {
    const rendered = outcome.ok ? (outcome.rendered ?? renderResult(outcome.value, render)) : null
    const fullText = rendered ? rendered.text : null
    const { startedAt, durationMs, toolCallCount } = totals(execution)
    const error = outcome.ok ? null : outcome.error
    metrics.executionEnded(error ? "error" : "ok", error && error.code, durationMs)
    endSpan(execution.span, error, {
      "switchboard.tool_calls": execution.calls.length,
      // a size, never the text
      "switchboard.result.chars": fullText?.length ?? 0,
    })
    const record: ExecutionRecord = {
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
    // a first run's record is written in one transaction with those of executions that finished alongside; a
    // resume's overwrites the paused record and closes its approval, in one batch of its own
    const written = execution.replay
      ? store.completeResume(execution.replay.approvalId, { execution: record, calls: execution.calls }, now())
      : records.record(record, execution.calls)
    let notStored: string | undefined
    await Promise.all([
      written.catch((cause) => {
        notStored = `this execution's record was not stored (${recordFailure(logger, cause)}), so it cannot be read back later`
      }),
      execution.flushShapes(store).catch((cause) => internalError(logger, "shape observation", cause)),
    ])
    const named =
      notStored === undefined ? { executionId: execution.id, stored: true } : { stored: false, warning: notStored }
    if (!outcome.ok) return { ...named, ok: false, error: outcome.error, logs: outcome.logs }
    const inline = inlineText(fullText!, notStored === undefined ? execution.id : null, inlineCap)
    const response: Extract<ExecuteResponse, { ok: true }> = {
      ...named,
      ok: true,
      result: undefined,
      text: inline.text,
      logs: outcome.logs,
    }
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

  /**
   * One execution as an Effect for the surfaces: `Overloaded` when the runtime has no room for it (HTTP 429
   * with Retry-After). A caller hanging up interrupts the fiber: the run and its tool calls are aborted, and the
   * interruption ends once the execution is recorded. `by`: who asked; its key is recorded with the execution.
   */
  const execute = (
    request: ExecuteRequest,
    by: Pick<Caller, "keyId"> = OPEN_CALLER,
  ): Effect.Effect<ExecuteResponse, Overloaded> =>
    Effect.callback<ExecuteResponse, Overloaded>((resume, signal) => {
      const running = run(request, signal, by)
      // `run` answers every expected failure as a value: a rejection is our defect, and the fiber dies of it
      running.then(
        (response) => resume(isOverloaded(response) ? Effect.fail(response) : Effect.succeed(response)),
        (cause: unknown) => resume(Effect.die(cause)),
      )
      return Effect.promise(() => running.catch(() => undefined))
    })

  /** `inlineCap`: where a result's text is cut, so a surface that answers a stored record cuts it as the run did */
  return { parse, execute, run, resume, policies, limits: serverLimits, inlineCap }
}

export type Executor = ReturnType<typeof createExecutor>
