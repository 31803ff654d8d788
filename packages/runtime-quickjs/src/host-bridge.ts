import type { InvokeTool, RunError, RunLimits, ToolResult } from "@switchboard/core"
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten-core"
import { stringLength } from "./guest-calls.js"
import type { LogBuffer } from "./log-buffer.js"
import { invokeFunctionName, logFunctionName, logLevels } from "./prelude/protocol.js"
import type { LogLevel } from "./prelude/protocol.js"
import { runErrors } from "./run-errors.js"

export interface BridgeEvents {
  /** a tool result reached the guest: the driver should run pending jobs */
  wake(): void
  /** the script went past a limit the bridge enforces; the run is over */
  fail(error: RunError): void
  /** a QuickJS call outside the driver threw in the host: the module can no longer be trusted */
  hostFailure(failure: unknown): void
}

/** Calls a tool with its arguments as JSON text and answers with the result as JSON text. */
export type InvokeJson = (path: string, argsJson: string) => Promise<string>

export interface HostBridge {
  /** tool calls whose result has not yet reached the guest */
  readonly inflight: number
  /** From now on results are dropped; frees every handle the bridge holds. Call before disposing the context. */
  close(): void
  /** From now on results are dropped; touches nothing in QuickJS (for a module that can no longer be trusted). */
  detach(): void
}

const hostFailureResult: ToolResult = {
  ok: false,
  error: { code: "internal_error", message: "the tool call failed in the host" },
}

/**
 * Puts the two host functions on the guest's global object (the prelude takes them off again).
 * `invoke(path, args)` is the only door out of the sandbox; everything crosses it as JSON text, and each
 * call is answered with a QuickJS promise that the host resolves with the result's JSON text.
 */
export const installHostBridge = (
  ctx: QuickJSContext,
  options: { invoke: InvokeTool; invokeJson?: InvokeJson; limits: RunLimits; logs: LogBuffer; events: BridgeEvents },
): HostBridge => {
  const { invoke, invokeJson, limits, logs, events } = options
  /** the promise of every call still waiting for its result */
  const unsettled = new Set<QuickJSDeferredPromise>()
  let calls = 0
  let inflight = 0
  let closed = false

  const callHost = async (path: string, argsJson: string): Promise<string> => {
    try {
      // leave the QuickJS callback before running host code
      await null
      const text = invokeJson ? await invokeJson(path, argsJson) : JSON.stringify(await invoke(path, JSON.parse(argsJson)))
      if (typeof text === "string") return text
    } catch {
      // The contract says invoke never rejects for an expected failure. The host error itself may carry
      // secrets, so the script gets a generic failure.
    }
    return JSON.stringify(hostFailureResult)
  }

  const settle = (deferred: QuickJSDeferredPromise, resultJson: string) => {
    inflight--
    // a result that arrives after the run ended must never touch the (disposed) context
    if (closed) return
    unsettled.delete(deferred)
    try {
      const result = ctx.newString(resultJson)
      deferred.resolve(result)
      result.dispose()
    } catch (failure) {
      events.hostFailure(failure)
      return
    }
    events.wake()
  }

  const define = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) =>
    ctx.newFunction(name, fn).consume((handle) => ctx.setProp(ctx.global, name, handle))

  define(invokeFunctionName, (pathHandle, argsHandle) => {
    // returned to the guest, the promise handle is the library's to free; resolve or dispose frees the rest
    const deferred = ctx.newPromise()
    unsettled.add(deferred)
    calls++
    if (calls > limits.maxToolCalls) {
      // the promise never settles: the driver ends the run and the interrupt handler stops the guest
      events.fail(runErrors.toolCallLimit(limits))
      return deferred.handle
    }
    const path = pathHandle ? ctx.getString(pathHandle) : ""
    const argsJson = argsHandle ? ctx.getString(argsHandle) : "{}"
    inflight++
    void callHost(path, argsJson).then((resultJson) => settle(deferred, resultJson))
    return deferred.handle
  })

  define(logFunctionName, (levelHandle, textHandle) => {
    const level = levelHandle ? ctx.getString(levelHandle) : "log"
    // a line that cannot be kept is never copied out: a script logging huge strings costs the host nothing
    const units = textHandle && ctx.typeof(textHandle) === "string" ? stringLength(ctx, textHandle) : 0
    if (!logs.fits(units)) logs.drop(units)
    else logs.push(isLogLevel(level) ? level : "log", textHandle ? ctx.getString(textHandle) : "")
    return undefined
  })

  return {
    get inflight() {
      return inflight
    },
    detach() {
      closed = true
      unsettled.clear()
    },
    close() {
      closed = true
      for (const deferred of unsettled) deferred.dispose()
      unsettled.clear()
    },
  }
}

const isLogLevel = (level: string): level is LogLevel => (logLevels as readonly string[]).includes(level)
