/**
 * One execution: its limits, its lifetime, its tool calls (in flight and finished), its shape observations and
 * its span. `invoke` is the door out of the sandbox for this execution alone. A plain object: the per-call path
 * runs no Effect.
 */
import type { Span } from "@opentelemetry/api"
import type { SourceRow, ToolRow } from "../catalog/rows.js"
import { timeOrderedId } from "../ids.js"
import { ToolErrorCodes } from "../result.js"
import type { ToolResult } from "../result.js"
import type { InvokeTool, RunLimits, ToolCallRecord } from "../seams.js"
import { callerTag } from "../shapes/map-like.js"
import { createShapeObserver } from "./shape-observer.js"
import { startExecutionSpan } from "./tracing.js"

/** What the executor's shared tool machinery (tool-invoker.ts) does for one call of one execution. */
export type CallTool = (path: string, args: unknown, execution: Execution) => Promise<ToolResult>

const endedReason = () => new Error("the execution ended")

export class Execution {
  readonly id = timeOrderedId()
  readonly startedAt: number
  readonly deadline: number
  readonly span: Span
  /** tools this execution already resolved: one catalog lookup per path per execution */
  readonly resolved = new Map<string, { source: SourceRow; tool: ToolRow }>()
  /** every call that ended, in the order it ended; calls cut off by the run's end are added by `end` */
  readonly calls: ToolCallRecord[] = []
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

  constructor(
    readonly code: string,
    readonly limits: RunLimits,
    /** the caller's signal: aborted when it hangs up */
    readonly callerSignal: AbortSignal | undefined,
    /** the key that made it; only that key (or admin) reads it back */
    readonly keyId: string | null,
    private readonly callTool: CallTool,
    private readonly now: () => number,
  ) {
    this.startedAt = now()
    this.deadline = this.startedAt + limits.timeoutMs
    // with keys on, every key a result holds is marked with whose result it was (shapes/shape.ts, `by`)
    this.shapes = createShapeObserver(now, callerTag(keyId))
    this.span = startExecutionSpan(this.id)
  }

  /** The runtime's `invoke` for this execution: resolve, call, decode, observe, record. Never rejects. */
  readonly invoke: InvokeTool = (path, args) => this.callTool(path, args, this)

  /** time left for the execution; a tool call may not outlive it */
  remainingMs(): number {
    return this.deadline - this.now()
  }

  get signal(): AbortSignal {
    if (this.lifetime) return this.lifetime.signal
    const lifetime = (this.lifetime = new AbortController())
    if (this.ended) lifetime.abort(endedReason())
    else if (this.callerSignal?.aborted) lifetime.abort(this.callerSignal.reason)
    else this.callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true })
    return lifetime.signal
  }

  private readonly onCallerAbort = () => this.lifetime!.abort(this.callerSignal!.reason)

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
    if (this.lifetime) this.callerSignal?.removeEventListener("abort", this.onCallerAbort)
    const at = this.now()
    for (const { path, startedAt } of this.inflight.values())
      this.calls.push({
        executionId: this.id,
        toolPath: path,
        encoding: "direct",
        startedAt,
        durationMs: at - startedAt,
        ok: false,
        errorCode: ToolErrorCodes.aborted,
        dataBytes: null,
        outputSchemaError: null,
      })
    this.inflight.clear()
    this.lifetime?.abort(endedReason())
  }

  /** Writes the shapes this execution observed, in one batch. */
  flushShapes(store: Parameters<ReturnType<typeof createShapeObserver>["flush"]>[0]): Promise<void> {
    return this.shapes.flush(store)
  }
}
