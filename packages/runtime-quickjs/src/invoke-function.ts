/**
 * `invoke(path, args)`, the only door out of the sandbox: the host function the prelude's `tools` proxy calls. It
 * reads the call from the guest (the path, the arguments' JSON text, the prelude's count of them), refuses what is
 * past the per-call bounds before it is copied out (./call-bounds.ts), counts the call against maxToolCalls, and
 * starts it in the host (./call-settlement.ts). A call not taken leaves its promise pending.
 */
import type { QuickJSContext } from "quickjs-emscripten-core"
import { readBounded } from "./bounded-text.js"
import type { TextBuiltins } from "./bounded-text.js"
import type { BridgeDate } from "./bridge-date.js"
import type { BridgeState } from "./bridge-state.js"
import { failRun } from "./bridge-state.js"
import { refusedByCount, refusedBySize } from "./call-bounds.js"
import { callHost } from "./call-settlement.js"
import type { CallSettlement } from "./call-settlement.js"
import { invokeFunctionName } from "./prelude/protocol.js"
import { runErrors } from "./run-errors.js"
import { utf8Length } from "./utf8-length.js"

export interface InvokeFunctionOptions {
  ctx: QuickJSContext
  text: TextBuiltins
  state: BridgeState
  date: Pick<BridgeDate, "takeReads">
  settlement: CallSettlement
}

export const makeInvokeFunction = ({ ctx, text, state, date, settlement }: InvokeFunctionOptions) => {
  const { settle, answer } = settlement
  return ctx.newFunction(invokeFunctionName, (resolveHandle, pathHandle, argsHandle, reasonHandle) => {
    const current = state.run
    // a call not taken leaves its promise pending: the driver ends the run and the interrupt handler stops the guest
    if (!current || state.over || !resolveHandle) return undefined
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
    const units = reasonHandle ? ctx.getNumber(reasonHandle) : Number.NaN
    const tooMany = refusedByCount(limits, units, state.inflightBytes)
    if (tooMany) return void answer(resolveHandle, tooMany)
    const path = ctx.getString(pathHandle)
    const argsJson = ctx.getString(argsHandle)
    const bytes = utf8Length(path) + utf8Length(argsJson)
    const tooLarge = refusedBySize(limits, bytes, state.inflightBytes)
    if (tooLarge) return void answer(resolveHandle, tooLarge)
    if (++state.calls > limits.maxToolCalls) return void failRun(state, current, runErrors.toolCallLimit(limits))
    // the argument handle lives for this callback only: keep a reference of our own until the result arrives
    const resolve = resolveHandle.dup()
    state.unsettled.add(resolve)
    state.inflight++
    state.inflightBytes += bytes
    const generation = state.resets
    // taken now: the script goes on running (and reading the clock) before the host code of the call starts
    const clockReads = current.clock ? date.takeReads() : undefined
    void callHost(current, path, argsJson, clockReads).then((resultJson) =>
      settle(generation, current.events, resolve, bytes, resultJson),
    )
    return undefined
  })
}
