import type { ContentBlock, LogEntry, RunError, RunOptions, RunOutcome } from "@switchboard/core"
import { countJsonNodes } from "@switchboard/core"
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { classifyThrown } from "./classify-error.js"
import { readDeterminism } from "./determinism.js"
import type { Determinism } from "./determinism.js"
import type { ThrowPhase } from "./classify-error.js"
import { readThrown, serializeResult } from "./guest-calls.js"
import type { HostBridge, InvokeJson } from "./host-bridge.js"
import { callsFor, recordStretch } from "./interrupt-budget.js"
import { createLogBuffer } from "./log-buffer.js"
import type { LogBuffer, LogSink } from "./log-buffer.js"
import { executePendingJobs, seedMathRandom } from "./quickjs-internals/index.js"
import { prepareCode, scriptFilename } from "./prepare-code.js"
import type { PreparedCode } from "./prepare-code.js"
import { runErrors } from "./run-errors.js"
import { maxStackBytes } from "./stack-limit.js"
import { createSandbox, disposeSandbox } from "./sandbox.js"
import type { Sandbox } from "./sandbox.js"
import { utf8Length } from "./utf8-length.js"

export interface ScriptRun {
  outcome: RunOutcome
  /**
   * The module threw in the host (an abort, a host stack overflow) or failed to dispose the runtime:
   * it must not run anything again. The outcome still stands.
   */
  poisoned: boolean
}

export interface ScriptRunOptions extends RunOptions {
  /**
   * Used instead of `invoke` when given: a host that moves tool calls as JSON text anyway (the worker pool
   * posts them to the main thread) skips a parse and a stringify per call. It must resolve to a
   * ToolResult's JSON text, and should not reject (a rejection becomes an `internal_error` result).
   */
  invokeJson?: InvokeJson
  /**
   * Called once the script compiles as far as type stripping goes: a sandbox prepared ahead of time in the
   * same module (never used by another run). Without one, or when it gives undefined, the run creates its own.
   */
  takeSandbox?: () => Sandbox | undefined
  /**
   * Called each time the script waits on tool results with nothing else to run, just before the driver
   * sleeps. A host whose results arrive as messages may take them synchronously here (the pool worker
   * polls briefly: waking a sleeping thread costs more than a fast tool call).
   */
  awaitingResults?: () => void
  /** told of every log line as the run keeps or drops it (see LogSink) */
  logSink?: LogSink
  /**
   * The clock the deadline is read from (default `Date.now`). Tests pass a frozen one to show the interrupt
   * budget (interrupt-budget.ts) ends a CPU loop where the clock does not move, as on Cloudflare Workers.
   */
  now?: () => number
}

/** A run whose sandbox is not yet disposed: the caller answers first, then calls `dispose`. */
export interface SandboxRun {
  outcome: RunOutcome
  /** QuickJS threw in the host: the module must not run anything again (dispose then touches nothing) */
  poisoned: boolean
  /** Frees the sandbox; false when QuickJS failed to, which poisons the module too. Call it once. */
  dispose(): boolean
}

type Settled = { ok: true; value: unknown } | { ok: false; error: RunError }

/** Reading an error is the host's own work, so it gets a fresh slice of time even after the deadline. */
const readThrownBudgetMs = 50
/** setTimeout's ceiling; a longer limit would fire at once */
const maxTimerMs = 2 ** 31 - 1

/**
 * Runs one script in a fresh QuickJS runtime and context of `module`. Free of Node built-ins, so a Node
 * worker thread and a Cloudflare Worker can both call it; a pool that hard-kills runaway workers wraps it.
 * It never rejects for anything the script does.
 */
export const runScript = async (
  module: QuickJSWASMModule,
  code: string,
  options: ScriptRunOptions,
): Promise<ScriptRun> => {
  const run = await runInSandbox(module, code, options)
  const clean = run.dispose()
  return { outcome: run.outcome, poisoned: run.poisoned || !clean }
}

/**
 * runScript without the final dispose, for a host that answers before it cleans up (disposing a runtime
 * costs about as much as compiling a small script). The sandbox still serves this one run only.
 */
export const runInSandbox = async (
  module: QuickJSWASMModule,
  code: string,
  options: ScriptRunOptions,
): Promise<SandboxRun> => {
  const determinism = options.determinism && readDeterminism(options.determinism)
  if (typeof determinism === "string") return unrun(runErrors.internal(determinism))
  const prepared = prepareCode(code)
  if (!prepared.ok) return unrun(prepared.error)
  const session = new ScriptSession(module, prepared.code, options, determinism)
  return session.execute()
}

/** A run that ends before it has a sandbox. */
const unrun = (error: RunError): SandboxRun => ({
  outcome: { ok: false, error, logs: [] },
  poisoned: false,
  dispose: () => true,
})

class ScriptSession {
  private readonly logs: LogBuffer
  private readonly now: () => number
  private readonly deadline: number
  private interruptAt: number
  /** interrupt-handler calls so far, and how many the run may make: the deadline where the clock is frozen */
  private interruptCalls = 0
  private callsAllowed: number
  private failure: RunError | undefined
  private hostFailure: { cause: unknown } | undefined
  private signalled = false
  private resume: (() => void) | undefined
  private sandbox: Sandbox | undefined

  constructor(
    private readonly module: QuickJSWASMModule,
    private readonly code: PreparedCode,
    private readonly options: ScriptRunOptions,
    private readonly determinism: Determinism | undefined,
  ) {
    this.logs = createLogBuffer(options.limits, options.logSink)
    this.now = options.now ?? Date.now
    // the caller's deadline as it is; a caller that sets none gets its limit from now
    this.deadline = options.deadline ?? this.now() + options.limits.timeoutMs
    this.interruptAt = this.deadline
    this.callsAllowed = callsFor(this.deadline - this.now())
  }

  async execute(): Promise<SandboxRun> {
    const { limits, signal } = this.options
    if (signal?.aborted) return this.finish({ ok: false, error: runErrors.aborted() }, false)
    // The interrupt handler stops guest CPU loops; this timer is the wall clock across awaited tool calls.
    const timer = setTimeout(
      () => this.fail(runErrors.timeout(limits)),
      Math.min(this.deadline - this.now(), maxTimerMs),
    )
    const onAbort = () => this.fail(runErrors.aborted())
    signal?.addEventListener("abort", onAbort)
    let result: Settled
    let poisoned = false
    try {
      result = await this.drive()
    } catch (cause) {
      // QuickJS threw in the host, not in the guest: its state is unknown, so nothing of it is touched again
      poisoned = true
      result = { ok: false, error: hostError(cause, this.options) }
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener("abort", onAbort)
    }
    // From here on tool results are dropped, even before the sandbox is disposed: nothing reaches it again.
    if (poisoned) this.sandbox?.bridge.detach()
    else {
      try {
        this.sandbox?.bridge.close()
      } catch {
        poisoned = true
      }
    }
    return this.finish(result, poisoned)
  }

  private async drive(): Promise<Settled> {
    const { limits, invoke, invokeJson, takeSandbox } = this.options
    const sandbox = (this.sandbox = takeSandbox?.() ?? createSandbox(this.module))
    const { runtime, context, bridge, stringify } = sandbox
    const { determinism } = this
    if (determinism) {
      // the sandbox's own fresh seed is replaced: the same seed draws the same numbers as the run this one repeats
      if (!seedMathRandom(this.module, context, determinism.seed))
        return { ok: false, error: runErrors.internal("Math.random cannot be seeded in this QuickJS build") }
      // A snapshot's sandbox has it already. Without determinism the context's own Date reads the very clock the
      // replacement would, so a sandbox made for one run replaces it only for a run with determinism.
      sandbox.globals.replaceDate()
    }
    runtime.setMemoryLimit(limits.memoryBytes)
    runtime.setMaxStackSize(Math.min(limits.stackBytes, maxStackBytes))
    runtime.setInterruptHandler(
      () => this.failure !== undefined || ++this.interruptCalls > this.callsAllowed || this.pastDeadline(),
    )
    bridge.attach({
      invoke,
      invokeJson,
      limits,
      logs: this.logs,
      clock: determinism?.clock,
      events: {
        wake: () => this.wake(),
        fail: (error) => this.fail(error),
        hostFailure: (cause) => {
          this.hostFailure = { cause }
          this.wake()
        },
      },
    })

    // always "global": left to its heuristic, quickjs-emscripten would run a script with `import` as a module
    const evaluated = this.timed(() => context.evalCode(this.code.source, scriptFilename, { type: "global" }))
    if (evaluated.error) return { ok: false, error: this.thrown(evaluated.error, "compile") }
    const promise = evaluated.value
    try {
      return await this.settle(runtime, context, bridge, stringify, promise)
    } finally {
      if (promise.alive) promise.dispose()
    }
  }

  /** Runs jobs and waits for tool results until the script's promise settles or the run must end. */
  private async settle(
    runtime: QuickJSRuntime,
    context: QuickJSContext,
    bridge: HostBridge,
    stringify: QuickJSHandle,
    promise: QuickJSHandle,
  ): Promise<Settled> {
    for (;;) {
      if (this.hostFailure) throw this.hostFailure.cause
      if (this.failure) return { ok: false, error: this.failure }
      const jobs = this.timed(() => executePendingJobs(this.module, runtime, context))
      if (!jobs.ok) {
        if (!this.failure) return { ok: false, error: this.thrown(jobs.error, "run") }
        jobs.error.dispose()
      }
      if (this.failure) return { ok: false, error: this.failure }
      const state = context.getPromiseState(promise)
      if (state.type === "fulfilled") {
        // notAPromise means the value is the promise handle itself, which drive() disposes
        const value = state.notAPromise ? promise : state.value
        try {
          return this.readResult(context, stringify, value)
        } finally {
          if (!state.notAPromise) value.dispose()
        }
      }
      if (state.type === "rejected") return { ok: false, error: this.thrown(state.error, "run") }
      // an interrupt that lands in a job's handler becomes that job's rejection, and its chain ends with nothing left
      // to run: the run stopped at its time limit, not on a promise nothing could settle
      if (this.interruptDue()) return { ok: false, error: runErrors.timeout(this.options.limits) }
      if (bridge.inflight === 0 && !runtime.hasPendingJob()) return { ok: false, error: runErrors.neverSettled() }
      if (!this.signalled && this.options.awaitingResults) {
        // first let the host code of the calls just made run (they start after a microtask), then wait
        await null
        if (!this.signalled) this.options.awaitingResults()
      }
      await this.sleep()
    }
  }

  private readResult(context: QuickJSContext, stringify: QuickJSHandle, value: QuickJSHandle): Settled {
    const { limits } = this.options
    const serialized = serializeResult(context, stringify, value, limits.maxResultBytes)
    switch (serialized.kind) {
      case "undefined":
        return { ok: true, value: undefined }
      case "too-long":
        return { ok: false, error: runErrors.resultTooLarge(limits, serialized.units, false) }
      case "not-json":
        return { ok: false, error: runErrors.resultNotSerializable(serialized.reason) }
      case "threw": {
        const error = this.thrown(serialized.thrown, "run")
        if (error.code !== "runtime_error") return { ok: false, error }
        return { ok: false, error: runErrors.resultNotSerializable(error.message.replace(/^\w*Error: /, "")) }
      }
      case "json": {
        const bytes = utf8Length(serialized.text)
        if (bytes > limits.maxResultBytes) return { ok: false, error: runErrors.resultTooLarge(limits, bytes, true) }
        const nodes = countJsonNodes(serialized.text)
        if (nodes > limits.maxResultNodes) return { ok: false, error: runErrors.resultTooManyNodes(limits, nodes) }
        return { ok: true, value: JSON.parse(serialized.text) }
      }
    }
  }

  /** Reads and disposes a thrown handle (only called once the sandbox exists). */
  private thrown(handle: QuickJSHandle, phase: ThrowPhase): RunError {
    const sandbox = this.sandbox
    if (!sandbox) throw new Error("thrown() before the sandbox exists")
    this.interruptAt = this.now() + readThrownBudgetMs
    const callsAllowed = this.callsAllowed
    this.callsAllowed = this.interruptCalls + callsFor(readThrownBudgetMs)
    try {
      const description = readThrown(sandbox.context, sandbox.stringify, sandbox.text, handle)
      return classifyThrown(description, phase, this.code, this.options.limits)
    } finally {
      handle.dispose()
      this.interruptAt = this.deadline
      this.callsAllowed = callsAllowed
    }
  }

  private pastDeadline(): boolean {
    return this.now() > this.interruptAt
  }

  /** The interrupt handler would stop guest code now: the deadline passed, or its budget of interrupt calls is spent. */
  private interruptDue(): boolean {
    return this.interruptCalls > this.callsAllowed || this.pastDeadline()
  }

  /** Runs a stretch of guest code and times it: where the clock moves, that calibrates the interrupt budget. */
  private timed<T>(stretch: () => T): T {
    const calls = this.interruptCalls
    const started = this.now()
    try {
      return stretch()
    } finally {
      recordStretch(this.interruptCalls - calls, this.now() - started)
    }
  }

  private fail(error: RunError) {
    this.failure ??= error
    this.wake()
  }

  private wake() {
    this.signalled = true
    this.resume?.()
  }

  private async sleep() {
    if (!this.signalled) await new Promise<void>((resolve) => (this.resume = resolve))
    this.resume = undefined
    this.signalled = false
  }

  private finish(result: Settled, poisoned: boolean): SandboxRun {
    const logs: LogEntry[] = this.logs.entries()
    let outcome: RunOutcome
    if (result.ok) {
      const emitted: ContentBlock[] | undefined = this.sandbox?.bridge.emitted
      outcome = emitted?.length
        ? { ok: true, value: result.value, logs, emitted }
        : { ok: true, value: result.value, logs }
    } else outcome = { ok: false, error: result.error, logs }
    const sandbox = this.sandbox
    let clean: boolean | undefined
    // a poisoned module is never touched again, not even to dispose
    const dispose = () => (clean ??= !poisoned && (!sandbox || disposeSandbox(sandbox)))
    return { outcome, poisoned, dispose }
  }
}

const hostError = (cause: unknown, options: RunOptions): RunError => {
  // A deep recursion can exhaust the host's own stack before QuickJS's limit trips (main thread, large
  // stackBytes); V8 then throws its RangeError through the wasm frames.
  if (cause instanceof RangeError && /call stack/i.test(cause.message)) return runErrors.stackOverflow(options.limits)
  return runErrors.internal(cause instanceof Error ? cause.message : String(cause))
}
