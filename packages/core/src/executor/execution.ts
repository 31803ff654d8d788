/**
 * One execution: its limits, its lifetime, its tool calls (in flight and finished), its shape observations and
 * its span. `invoke` is the door out of the sandbox for this execution alone. A plain object: the per-call path
 * runs no Effect.
 */
import type { Span } from "@opentelemetry/api"
import { ResultEncodings } from "../encodings/encoding.js"
import { timeOrderedId } from "../ids.js"
import type { EffectivePolicy } from "../policy/policy.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import { MAX_CLOCK_READS } from "../seams.js"
import type { InvokeTool, RunLimits, ToolCallRecord } from "../seams.js"
import { callerTag } from "../shapes/map-like.js"
import type { CallOutcome, ResolvedTool } from "./call-outcome.js"
import { argsText, divergence, freshSeed } from "./replay.js"
import type { PausedCall, RecordedCall, Replay } from "./replay.js"
import { createShapeObserver } from "./shape-observer.js"
import { startExecutionSpan } from "./tracing.js"

/** One tool call as the script made it. `index`: its place among the run's calls, in the order the script made them. */
export interface ScriptCall {
  index: number
  path: string
  args: unknown
}

/** What the executor's shared tool machinery (tool-invoker.ts) does for one call of one execution. */
export type CallTool = (execution: Execution, call: ScriptCall) => Promise<ToolResult>

const endedReason = () => new Error("the execution ended")

/**
 * A call the run will never see answered: it paused, or its replay diverged, and the run is being stopped. A new
 * promise each time: whatever waits on it is garbage with the execution, where a shared one would keep every
 * waiter, and the execution behind it, for the life of the process.
 */
const held = () => new Promise<ToolResult>(() => {})

/** A call this run made upstream, as the journal keeps it until a pause needs its arguments' text. */
interface LiveCall {
  call: ScriptCall
  result: ToolResult
}

/** Where a run paused: the call, and the policy that asked for a person. */
export interface Pause {
  call: PausedCall
  args: unknown
  policy: EffectivePolicy
}

/** What an execution is made of. `id` and `replay` are set only for a resume. */
export interface ExecutionOptions {
  code: string
  limits: RunLimits
  /** the caller's signal: aborted when it hangs up */
  callerSignal?: AbortSignal
  /** the key that made it; only that key (or admin) reads it back */
  keyId: string | null
  callTool: CallTool
  now: () => number
  /** the execution's id: a resume keeps the paused execution's */
  id?: string
  /** the run being resumed, replayed up to its pause */
  replay?: Replay
}

export class Execution {
  readonly id: string
  readonly code: string
  readonly limits: RunLimits
  readonly callerSignal: AbortSignal | undefined
  readonly keyId: string | null
  readonly replay: Replay | undefined
  /** Math.random's seed for this run: a replay's is the first run's */
  readonly seed: string
  /** the values the script's Date reads returned, in order, as the runtime reported them */
  readonly clock: number[] = []
  /**
   * every call that returned to the script: what a pause stores for the resume to replay (`recordedCalls`). A live
   * call keeps its arguments as given, turned into text only if the run pauses.
   */
  readonly journal: (RecordedCall | LiveCall)[] = []
  /** set when a call needs a person's decision: the run stops once the calls in flight have returned */
  paused: Pause | undefined
  /** set when a replayed call differs from the record: the run stops, failed with `replay_diverged` */
  diverged: string | undefined
  /** set when a resume may not pass its pause (an earlier one did): the run stops, failed with `resume_interrupted` */
  interrupted: string | undefined
  /** calls made so far (the next call's index) */
  callsMade = 0
  readonly startedAt: number
  /**
   * When the run must end, on the wall clock (`Date.now`) the runtime and its worker threads read: `now`, the
   * host's clock, may be a test's, which times records and is not the runtime's (RunOptions.deadline)
   */
  readonly deadline: number
  readonly span: Span
  /** tools this execution already resolved: one catalog lookup per path per execution */
  readonly resolved = new Map<string, ResolvedTool>()
  /** lookups still out, which calls of the same path made meanwhile (`Promise.all`) wait for */
  readonly resolving = new Map<string, Promise<ResolvedTool | CallOutcome>>()
  /** every call that ended, in the order it ended; calls cut off by the run's end are added by `end` */
  readonly calls: ToolCallRecord[] = []
  private readonly callTool: CallTool
  private readonly now: () => number
  private readonly shapes: ReturnType<typeof createShapeObserver>
  private readonly inflight = new Map<number, { path: string; startedAt: number }>()
  private nextCallId = 0
  /**
   * The tool calls' signal: the caller hanging up aborts it, and so does the run ending, so calls still in
   * flight are cancelled upstream instead of outliving their execution. Made at the first tool call: a
   * controller and its listener cost microseconds, and most scripts that call no tool need neither.
   */
  private lifetime: AbortController | undefined
  private ended = false
  /** calls on their way to the source whose result the journal has not yet taken */
  private live = 0
  /** the runtime's stop: a pause or a divergence ends the run, as the caller hanging up does */
  private readonly stop = new AbortController()

  constructor({ code, limits, callerSignal, keyId, callTool, now, id, replay }: ExecutionOptions) {
    this.code = code
    this.limits = limits
    this.callerSignal = callerSignal
    this.keyId = keyId
    this.callTool = callTool
    this.now = now
    this.id = id ?? timeOrderedId()
    this.replay = replay
    this.seed = replay?.record.seed ?? freshSeed()
    if (callerSignal?.aborted) this.stop.abort(callerSignal.reason)
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true })
    this.startedAt = now()
    this.deadline = Date.now() + limits.timeoutMs
    // with keys on, every key a result holds is marked with whose result it was (shapes/shape.ts, `by`)
    this.shapes = createShapeObserver(now, callerTag(keyId))
    this.span = startExecutionSpan(this.id)
  }

  /**
   * The runtime's `invoke` for this execution: resolve, call, decode, observe, record; or, in a replay, the
   * recorded result. Never rejects. A call made after the run paused or diverged is never answered: the run is
   * being stopped, and a resume makes it again.
   */
  readonly invoke: InvokeTool = (path, args, clockReads) => {
    if (clockReads) for (const read of clockReads) if (this.clock.length < MAX_CLOCK_READS) this.clock.push(read)
    if (this.paused || this.diverged || this.interrupted) return held()
    const call: ScriptCall = { index: this.callsMade++, path, args }
    const replay = this.replay
    if (replay) {
      const { record } = replay
      const recorded = record.calls[0]?.index === call.index ? record.calls.shift() : undefined
      if (recorded || call.index === record.pause.index) {
        const text = argsText(args)
        const differs = divergence(recorded ?? record.pause, call, text)
        if (differs) return this.diverge(differs)
        if (recorded) {
          this.journal.push(recorded)
          return Promise.resolve(recorded.result)
        }
        return this.passPause(replay, call, text)
      }
    }
    return this.made(call)
  }

  /**
   * The resume reached its paused call: from here on it acts on the world, so it says so in the store first, and
   * goes on only if no earlier resume did. Counted live meanwhile: a pause elsewhere waits for it.
   */
  private passPause(replay: Replay, call: ScriptCall, text: string): Promise<ToolResult> {
    this.live++
    const stopped = (why: string) => {
      this.live--
      this.interrupted = why
      this.stopRun()
      return held()
    }
    return replay.passPause().then(
      (passed) => {
        if (!passed)
          return stopped(
            `another resume of this execution went past its pause (${call.path}) already: this one stops there, so no call is made twice`,
          )
        this.live--
        // a divergence has stopped the run; a pause elsewhere has not: the call a person decided is still made
        // (or answered), and the run stops once nothing is in flight
        if (this.diverged || this.interrupted) return held()
        const { decision } = replay
        if (decision.approved) return this.made(call)
        const answered = this.declined(call, text, decision)
        if (this.paused && this.live === 0) this.stopRun()
        return answered
      },
      (cause: unknown) =>
        stopped(
          `the resume could not record that it reached ${call.path} (${cause instanceof Error ? cause.message : String(cause)}), so it did not make it`,
        ),
    )
  }

  /** a call made for real: through the invoker to its source (or the catalog) */
  private made(call: ScriptCall): Promise<ToolResult> {
    this.live++
    return this.callTool(this, call).then((result) => {
      this.journal.push({ call, result })
      this.live--
      if (this.paused && this.live === 0) this.stopRun()
      return result
    })
  }

  /** The journal as a resume replays it: every finished call by its index, its arguments as text. */
  recordedCalls(): RecordedCall[] {
    return this.journal
      .map((entry) =>
        "call" in entry
          ? { index: entry.call.index, path: entry.call.path, args: argsText(entry.call.args), result: entry.result }
          : entry,
      )
      .sort((a, b) => a.index - b.index)
  }

  /** the runtime's signal: the caller hanging up, a pause or a divergence stops the run */
  get runSignal(): AbortSignal {
    return this.stop.signal
  }

  /** Whether call `index` is the one a person approved (it runs whatever the policy says). */
  isApproved(index: number): boolean {
    return this.replay !== undefined && this.replay.decision.approved && this.replay.record.pause.index === index
  }

  /**
   * Call `index` needs a person's decision: it is not made, and the run stops once the calls in flight have
   * returned (their results are recorded for the resume). `callId` is forgotten: the call is not recorded.
   */
  pauseAt(callId: number, { index, path, args }: ScriptCall, policy: EffectivePolicy): Promise<ToolResult> {
    this.inflight.delete(callId)
    this.live--
    // a second call needing a person (two in one Promise.all) may be the last in flight: it stops the run too,
    // else the run waits on promises that never settle until its time limit
    if (!this.paused && !this.diverged && !this.interrupted)
      this.paused = { call: { index, path, args: argsText(args) }, args, policy }
    if (this.live === 0) this.stopRun()
    return held()
  }

  private diverge(message: string): Promise<ToolResult> {
    this.diverged = message
    this.stopRun()
    return held()
  }

  /** A declined (or expired) approval: the call resolves to `declined` with the note, and is recorded as such. */
  private declined({ index, path }: ScriptCall, args: string, decision: { note: string | null; expired: boolean }) {
    const why = decision.expired
      ? "nobody decided before the approval expired"
      : `a person declined it${decision.note ? `: ${decision.note}` : ""}`
    const result = errResult(ToolErrorCodes.declined, `${path} was not run: ${why}`, {
      data: { note: decision.note, expired: decision.expired },
    })
    this.journal.push({ index, path, args, result })
    const at = this.now()
    this.calls.push({
      executionId: this.id,
      toolPath: path,
      encoding: ResultEncodings.direct,
      startedAt: at,
      durationMs: 0,
      ok: false,
      errorCode: ToolErrorCodes.declined,
      dataBytes: null,
      outputSchemaError: null,
    })
    return result
  }

  private stopRun() {
    if (!this.stop.signal.aborted)
      this.stop.abort(new Error(this.paused ? "paused" : this.diverged ? "replay diverged" : "resume interrupted"))
  }

  /**
   * the tool calls' signal. A call that reaches its source after the run ended (an approved call that passed its
   * pause meanwhile) finds it aborted and goes nowhere: `end` aborts it only for the calls then in flight.
   */
  get signal(): AbortSignal {
    if (!this.lifetime) {
      this.lifetime = new AbortController()
      if (!this.ended && this.callerSignal?.aborted) this.lifetime.abort(this.callerSignal.reason)
    }
    if (this.ended && !this.lifetime.signal.aborted) this.lifetime.abort(endedReason())
    return this.lifetime.signal
  }

  /** one listener on the caller's signal stops the run and the calls in flight */
  private readonly onCallerAbort = () => {
    const reason = this.callerSignal!.reason
    this.stop.abort(reason)
    this.lifetime?.abort(reason)
  }

  /** A call starts; `callEnded` with the same id ends it. */
  callStarted(path: string, startedAt: number): number {
    this.inflight.set(++this.nextCallId, { path, startedAt })
    return this.nextCallId
  }

  callEnded(callId: number, call: ToolCallRecord): void {
    // cut off when the run ended: already recorded as aborted
    if (this.ended || !this.inflight.delete(callId)) return
    this.calls.push(call)
  }

  /** Sees every successful call's decoded data (never the envelope), for shape learning. */
  observe(toolId: string, encoding: string, data: unknown): void {
    this.shapes.observe(toolId, encoding, data)
  }

  /** The run ended: calls still in flight are cancelled upstream and recorded as aborted. */
  end(): void {
    this.ended = true
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort)
    // with every call answered there is nothing to cancel, and the abort's reason would cost a stack for no reader
    const cutOff = this.inflight.size > 0
    const at = this.now()
    for (const { path, startedAt } of this.inflight.values())
      this.calls.push({
        executionId: this.id,
        toolPath: path,
        encoding: ResultEncodings.direct,
        startedAt,
        durationMs: at - startedAt,
        ok: false,
        errorCode: ToolErrorCodes.aborted,
        dataBytes: null,
        outputSchemaError: null,
      })
    this.inflight.clear()
    if (cutOff) this.lifetime?.abort(endedReason())
  }

  /** Writes the shapes this execution observed, in one batch. */
  flushShapes(store: Parameters<ReturnType<typeof createShapeObserver>["flush"]>[0]): Promise<void> {
    return this.shapes.flush(store)
  }
}
