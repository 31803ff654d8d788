import type { ContentBlock, InvokeTool, RunError, RunLimits, ToolResult } from "@switchboard/core"
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import { readBounded, stringLength } from "./bounded-text.js"
import type { TextBuiltins } from "./bounded-text.js"
import type { RunClock } from "./determinism.js"
import type { LogBuffer } from "./log-buffer.js"
import { formatSource } from "../dist/prelude.js"
import {
  emitFunctionName,
  invokeFunctionName,
  loadFormatFunctionName,
  logFunctionName,
  logLevels,
} from "./prelude/protocol.js"
import type { LogLevel } from "./prelude/protocol.js"
import { runErrors } from "./run-errors.js"
import { utf8Length } from "./utf8-length.js"

export interface BridgeEvents {
  /** a tool result reached the guest: the driver should run pending jobs */
  wake(): void
  /** the script went past a limit the bridge enforces; the run is over */
  fail(error: RunError): void
  /** a QuickJS call outside the driver threw in the host: the module can no longer be trusted */
  hostFailure(failure: unknown): void
}

/**
 * Calls a tool with its arguments as JSON text and answers with the result as JSON text. `clockReads` as for
 * InvokeTool: the Date reads since the previous call, with `RunOptions.determinism`.
 */
export type InvokeJson = (path: string, argsJson: string, clockReads?: readonly number[]) => Promise<string>

/** What one run gives the bridge: where tool calls go, its limits, its log, its driver. */
export interface BridgeRun {
  invoke: InvokeTool
  invokeJson?: InvokeJson | undefined
  limits: RunLimits
  logs: LogBuffer
  events: BridgeEvents
  /** with `RunOptions.determinism`: what the sandbox's Date replays and records (determinism.ts) */
  clock?: RunClock | undefined
}

export interface HostBridge {
  /**
   * The host functions the prelude pieces take as arguments (protocol.ts). They stay alive until `close`: a piece
   * is compiled when the script first reads its global, which may be late in the run.
   */
  readonly functions: HostFunctions
  /**
   * Binds the host functions to the one run this context serves; until then they do nothing. A run with
   * determinism gives the sandbox's Date its clock here, before the script runs.
   */
  attach(run: BridgeRun): void
  /**
   * Takes the functions of the sandbox's Date as it is made (prelude/date.ts): `configure` gives it a run's clock,
   * `takeReads` the reads since its last call. Made before any run (a snapshot's sandbox), they last as long as
   * the sandbox; made during a run, as long as the run.
   */
  adoptDate(configure: QuickJSHandle, takeReads: QuickJSHandle): void
  /** tool calls whose result has not yet reached the guest */
  readonly inflight: number
  /** the content blocks the script passed to `emit`, in order (JSON copies) */
  readonly emitted: ContentBlock[]
  /** Ends the run: from now on results are dropped, and the resolve functions of calls still out are freed. */
  close(): void
  /** From now on results are dropped; touches nothing in QuickJS (for a module that can no longer be trusted). */
  detach(): void
  /** Frees the host functions. Call after `close`, before disposing the context. */
  dispose(): void
  /**
   * Makes the bridge as it was before its first run, freeing nothing: for a sandbox whose memory was just put
   * back as it was when it was made (sandbox-snapshot.ts), where the handles of the last run no longer exist.
   */
  reset(): void
}

export interface HostFunctions {
  readonly invoke: QuickJSHandle
  readonly log: QuickJSHandle
  readonly emit: QuickJSHandle
  readonly loadFormat: QuickJSHandle
}

const hostFailureResult: ToolResult = {
  ok: false,
  error: { code: "internal_error", message: "the tool call failed in the host" },
}

/**
 * A call refused for the size of its arguments; the path is not named, since it may be what was too long. `bytes`
 * is exact, or (`exact` false) the UTF-16 length the prelude counted, a lower bound of the UTF-8 size.
 */
const argumentsTooLarge = (
  limits: RunLimits,
  bytes: number,
  exact: boolean,
  inFlight: number | undefined,
): ToolResult => {
  const size = `${exact ? "" : "at least "}${bytes} bytes`
  const message =
    inFlight === undefined
      ? `this tool call's path and arguments are ${size} of JSON, over maxToolArgBytes, the limit of ${limits.maxToolArgBytes} bytes per call`
      : `this tool call's path and arguments (${size} of JSON) would bring the calls in flight to ${exact ? "" : "at least "}${inFlight + bytes} bytes, ` +
        `over maxToolArgBytesInFlight, the limit of ${limits.maxToolArgBytesInFlight} bytes for calls whose result has not arrived: await some first`
  return { ok: false, error: { code: "tool_arguments_too_large", message } }
}

const blockShape =
  'an MCP content block, an object with a string "type" (such as { type: "image", data: "<base64>", mimeType: "image/png" })'

/**
 * Makes the host functions, which the prelude pieces receive as arguments (they never sit on the global object).
 * They can be made before the run is known (a sandbox prepared ahead of time) and act once `attach` binds them.
 * `invoke(path, args)` is the only door out of the sandbox; everything crosses it as JSON text. The guest
 * makes the promise of each call and hands over its resolve function, which the host calls with the
 * result's JSON text (cheaper than a promise made by the host: one handle, one call). Arguments past
 * maxToolArgBytes, or past what maxToolArgBytesInFlight leaves, are refused before they are copied out of the guest
 * (by the length the prelude counted), and otherwise by their exact UTF-8 size: a refused call reaches no host.
 */
export const installHostBridge = (ctx: QuickJSContext, text: TextBuiltins): HostBridge => {
  let run: BridgeRun | undefined
  /** the resolve function of every call still waiting for its result */
  const unsettled = new Set<QuickJSHandle>()
  let emitted: ContentBlock[] = []
  let emittedBytes = 0
  let calls = 0
  let inflight = 0
  /** UTF-8 bytes of the path and arguments of the calls in flight */
  let inflightBytes = 0
  let closed = false
  /** past a limit the bridge enforces: later calls are not even read */
  let over = false
  /** how many times the bridge was reset: a call belongs to the run of its generation */
  let resets = 0
  /** the functions of the sandbox's Date, once made (adoptDate) */
  let date: { configure: QuickJSHandle; takeReads: QuickJSHandle; duringRun: boolean } | undefined

  /**
   * Gives the sandbox's Date the run's clock; a failure (out of memory) ends the run, which would not repeat. A clock
   * with nothing to replay is not handed over: Date records from the real clock as it was made (prelude/date.ts),
   * and a guest call at the start of every run slowed the execute path's warm-up (bench/warmup.ts: 2.1x against
   * 1.7x).
   */
  const configureDate = (current: BridgeRun, clock: RunClock) => {
    if (!date || !clock.replays) return
    const configured = ctx
      .newString(clock.config())
      .consume((json) => ctx.callFunction(date!.configure, ctx.undefined, json))
    if (!configured.error) return configured.value.dispose()
    configured.error.dispose()
    fail(current, runErrors.internal("the run's clock could not be given to Date"))
  }

  /** The Date reads since the last tool call, from the guest (a JSON array), or undefined when there were none. */
  const collectReads = (take: QuickJSHandle): number[] | undefined => {
    const taken = ctx.callFunction(take, ctx.undefined)
    // it only stringifies an array of numbers: it fails only when the run is ending anyway (out of memory, interrupted)
    if (taken.error) return taken.error.consume(() => undefined)
    return taken.value.consume((json) =>
      ctx.typeof(json) === "string" ? (JSON.parse(ctx.getString(json)) as number[]) : undefined,
    )
  }

  /** Forgets the Date functions made during a run, freeing them when `free` (not after a restore). */
  const forgetRunDate = (free: boolean) => {
    if (!date?.duringRun) return
    if (free) for (const handle of [date.configure, date.takeReads]) if (handle.alive) handle.dispose()
    date = undefined
  }

  const callHost = async (
    { invoke, invokeJson }: BridgeRun,
    path: string,
    argsJson: string,
    clockReads: number[] | undefined,
  ): Promise<string> => {
    try {
      // leave the QuickJS callback before running host code
      await null
      const text = invokeJson
        ? await invokeJson(path, argsJson, clockReads)
        : JSON.stringify(
            await (clockReads ? invoke(path, JSON.parse(argsJson), clockReads) : invoke(path, JSON.parse(argsJson))),
          )
      if (typeof text === "string") return text
    } catch {
      // The contract says invoke never rejects for an expected failure. The host error itself may carry
      // secrets, so the script gets a generic failure.
    }
    return JSON.stringify(hostFailureResult)
  }

  const settle = (
    generation: number,
    events: BridgeEvents,
    resolve: QuickJSHandle,
    bytes: number,
    resultJson: string,
  ) => {
    // a result for an earlier run of a sandbox that was put back since (sandbox-snapshot.ts) has no promise here
    if (generation !== resets) return
    inflight--
    inflightBytes -= bytes
    // a result that arrives after the run ended must never touch the (disposed) context
    if (closed) return
    unsettled.delete(resolve)
    try {
      // a promise's resolve function does not throw; the reactions run later, as pending jobs
      ctx
        .newString(resultJson)
        .consume((result) => ctx.callFunction(resolve, ctx.undefined, result))
        .dispose()
      resolve.dispose()
    } catch (failure) {
      events.hostFailure(failure)
      return
    }
    events.wake()
  }

  const fail = (current: BridgeRun, error: RunError) => {
    over = true
    current.events.fail(error)
  }

  /** No tool call: the promise resolves to the error result (in a job, like any resolution). */
  const answer = (resolve: QuickJSHandle, result: ToolResult) => {
    ctx
      .newString(JSON.stringify(result))
      .consume((json) => ctx.callFunction(resolve, ctx.undefined, json))
      .dispose()
  }

  const invokeFunction = ctx.newFunction(invokeFunctionName, (resolveHandle, pathHandle, argsHandle, reasonHandle) => {
    const current = run
    // a call not taken leaves its promise pending: the driver ends the run and the interrupt handler stops the guest
    if (!current || over || !resolveHandle) return undefined
    if (!pathHandle || !argsHandle || ctx.typeof(argsHandle) !== "string") {
      const path = pathHandle ? readBounded(ctx, text, pathHandle).text : ""
      const reason =
        reasonHandle && ctx.typeof(reasonHandle) === "string" ? readBounded(ctx, text, reasonHandle).text : ""
      return void answer(resolveHandle, {
        ok: false,
        error: { code: "invalid_arguments", message: `arguments for ${path} must be JSON-serializable: ${reason}` },
      })
    }
    const { limits } = current
    // the prelude's count in UTF-16 units, a lower bound of the UTF-8 size (a NaN, which it never sends, is refused too)
    const units = reasonHandle ? ctx.getNumber(reasonHandle) : Number.NaN
    if (!(units <= limits.maxToolArgBytes))
      return void answer(resolveHandle, argumentsTooLarge(limits, units, false, undefined))
    if (inflightBytes + units > limits.maxToolArgBytesInFlight)
      return void answer(resolveHandle, argumentsTooLarge(limits, units, false, inflightBytes))
    const path = ctx.getString(pathHandle)
    const argsJson = ctx.getString(argsHandle)
    const bytes = utf8Length(path) + utf8Length(argsJson)
    if (bytes > limits.maxToolArgBytes)
      return void answer(resolveHandle, argumentsTooLarge(limits, bytes, true, undefined))
    if (inflightBytes + bytes > limits.maxToolArgBytesInFlight)
      return void answer(resolveHandle, argumentsTooLarge(limits, bytes, true, inflightBytes))
    calls++
    if (calls > limits.maxToolCalls) return void fail(current, runErrors.toolCallLimit(limits))
    // the argument handle lives for this callback only: keep a reference of our own until the result arrives
    const resolve = resolveHandle.dup()
    unsettled.add(resolve)
    inflight++
    inflightBytes += bytes
    const generation = resets
    // taken now: the script goes on running (and reading the clock) before the host code of the call starts
    const clockReads = current.clock && date ? collectReads(date.takeReads) : undefined
    void callHost(current, path, argsJson, clockReads).then((resultJson) =>
      settle(generation, current.events, resolve, bytes, resultJson),
    )
    return undefined
  })

  const logFunction = ctx.newFunction(logFunctionName, (levelHandle, textHandle) => {
    const logs = run?.logs
    if (!logs) return undefined
    const level = levelHandle ? ctx.getString(levelHandle) : "log"
    // a line that cannot be kept is never copied out: a script logging huge strings costs the host nothing
    const units = textHandle && ctx.typeof(textHandle) === "string" ? stringLength(ctx, textHandle) : 0
    if (!logs.fits(units)) logs.drop(units)
    else logs.push(isLogLevel(level) ? level : "log", textHandle ? ctx.getString(textHandle) : "")
    return undefined
  })

  const emitFunction = ctx.newFunction(emitFunctionName, (jsonHandle, reasonHandle) => {
    const current = run
    if (!current || over) return undefined
    if (!jsonHandle || ctx.typeof(jsonHandle) !== "string") {
      const reason =
        reasonHandle && ctx.typeof(reasonHandle) === "string"
          ? readBounded(ctx, text, reasonHandle).text
          : "got undefined"
      return ctx.newString(
        `emit(block) takes ${blockShape}: ${reason.startsWith("got ") ? reason : `it is not JSON-serializable: ${reason}`}`,
      )
    }
    const { maxResultBytes } = current.limits
    // the length in UTF-16 units is a lower bound of the UTF-8 size: a block past the limit is never copied out
    const units = stringLength(ctx, jsonHandle)
    if (emittedBytes + units > maxResultBytes)
      return void fail(current, runErrors.emittedTooLarge(current.limits, emittedBytes + units, false))
    const json = ctx.getString(jsonHandle)
    const block: unknown = JSON.parse(json)
    if (!isContentBlock(block)) return ctx.newString(`emit(block) takes ${blockShape}: got ${summarizeValue(block)}`)
    const bytes = utf8Length(json)
    if (emittedBytes + bytes > maxResultBytes)
      return void fail(current, runErrors.emittedTooLarge(current.limits, emittedBytes + bytes, true))
    emittedBytes += bytes
    emitted.push(block)
    return undefined
  })

  // compiles format.ts on the run's first console call; a failure (out of memory, the deadline) is thrown in the guest
  const loadFormatFunction = ctx.newFunction(loadFormatFunctionName, (stringifyHandle) => {
    const evaluated = ctx.evalCode(formatSource, "format.js", { type: "global", strict: true })
    if (evaluated.error) return evaluated
    return evaluated.value.consume((makeFormat) =>
      ctx.callFunction(makeFormat, ctx.undefined, stringifyHandle ?? ctx.undefined),
    )
  })

  const functions: HostFunctions = {
    invoke: invokeFunction,
    log: logFunction,
    emit: emitFunction,
    loadFormat: loadFormatFunction,
  }
  return {
    functions,
    attach(next) {
      run = next
      if (next.clock) configureDate(next, next.clock)
    },
    adoptDate(configure, takeReads) {
      forgetRunDate(true)
      date = { configure, takeReads, duringRun: run !== undefined }
      // made during a run with determinism: it gets the run's clock at once
      if (run?.clock) configureDate(run, run.clock)
    },
    get inflight() {
      return inflight
    },
    get emitted() {
      return emitted
    },
    detach() {
      closed = true
      unsettled.clear()
      forgetRunDate(false)
    },
    close() {
      closed = true
      for (const resolve of unsettled) resolve.dispose()
      unsettled.clear()
      forgetRunDate(true)
    },
    dispose() {
      const dateHandles = date ? [date.configure, date.takeReads] : []
      for (const handle of [...Object.values(functions), ...dateHandles]) if (handle.alive) handle.dispose()
    },
    reset() {
      resets++
      run = undefined
      unsettled.clear()
      // a Date made during the run was in the memory just put back
      forgetRunDate(false)
      emitted = []
      emittedBytes = calls = inflight = inflightBytes = 0
      closed = over = false
    },
  }
}

const isLogLevel = (level: string): level is LogLevel => (logLevels as readonly string[]).includes(level)

const isContentBlock = (value: unknown): value is ContentBlock =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { type?: unknown }).type === "string"

const summarizeValue = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "object") return 'an object without a string "type"'
  return `a ${typeof value}`
}
