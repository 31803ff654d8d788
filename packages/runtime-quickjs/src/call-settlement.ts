/**
 * A tool call's way out and back: the host makes the call with the arguments' JSON text and answers the result's
 * JSON text; the guest made the call's promise and handed over its resolve function, which the host calls with
 * that text (cheaper than a promise made by the host: one handle, one call).
 */
import type { ToolResult } from "@switchboard/core"
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { BridgeEvents, BridgeRun, BridgeState } from "./bridge-state.js"

const hostFailureResult: ToolResult = {
  ok: false,
  error: { code: "internal_error", message: "the tool call failed in the host" },
}

/** The call made in the host, after the QuickJS callback has returned; it never rejects. */
export const callHost = async (
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

export type CallSettlement = ReturnType<typeof callSettlement>

export const callSettlement = (ctx: QuickJSContext, state: BridgeState) => ({
  /**
   * A call's result reaches the guest: its promise resolves (the reactions run later, as pending jobs). The call's
   * own values are passed as they are: this runs once per call, and an object to hold them would be one more
   * allocation on that path.
   */
  settle(generation: number, events: BridgeEvents, resolve: QuickJSHandle, bytes: number, resultJson: string) {
    // a result for an earlier run of a sandbox that was put back since (sandbox-snapshot.ts) has no promise here
    if (generation !== state.resets) return
    state.inflight--
    state.inflightBytes -= bytes
    // a result that arrives after the run ended must never touch the (disposed) context
    if (state.closed) return
    state.unsettled.delete(resolve)
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
  },

  /** No tool call: the promise resolves to the error result (in a job, like any resolution). */
  answer(resolve: QuickJSHandle, result: ToolResult) {
    ctx
      .newString(JSON.stringify(result))
      .consume((json) => ctx.callFunction(resolve, ctx.undefined, json))
      .dispose()
  },
})
