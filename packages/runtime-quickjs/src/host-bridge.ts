import type { ContentBlock } from "@switchboard/core"
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { TextBuiltins } from "./bounded-text.js"
import { bridgeDate } from "./bridge-date.js"
import { newBridgeState } from "./bridge-state.js"
import type { BridgeRun } from "./bridge-state.js"
import { callSettlement } from "./call-settlement.js"
import { formatSource } from "../dist/prelude.js"
import { guestOutput } from "./guest-output.js"
import { makeInvokeFunction } from "./invoke-function.js"
import { loadFormatFunctionName } from "./prelude/protocol.js"

export type { BridgeEvents, BridgeRun, InvokeJson } from "./bridge-state.js"

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

/**
 * Makes the host functions, which the prelude pieces receive as arguments (they never sit on the global object).
 * They can be made before the run is known (a sandbox prepared ahead of time) and act once `attach` binds them.
 * The bridge wires its parts: tool calls (./invoke-function.ts: the arguments read from the guest, the per-call
 * bounds and the call's settlement), `console` and `emit` (./guest-output.ts), and the sandbox's Date
 * (./bridge-date.ts); everything crosses as JSON text.
 */
export const installHostBridge = (ctx: QuickJSContext, text: TextBuiltins): HostBridge => {
  const state = newBridgeState()
  const date = bridgeDate(ctx, state)
  const invoke = makeInvokeFunction({ ctx, text, state, date, settlement: callSettlement(ctx, state) })
  const output = guestOutput(ctx, text, state)

  // compiles format.ts on the run's first console call; a failure (out of memory, the deadline) is thrown in the guest
  const loadFormat = ctx.newFunction(loadFormatFunctionName, (stringifyHandle) => {
    const evaluated = ctx.evalCode(formatSource, "format.js", { type: "global", strict: true })
    if (evaluated.error) return evaluated
    return evaluated.value.consume((makeFormat) =>
      ctx.callFunction(makeFormat, ctx.undefined, stringifyHandle ?? ctx.undefined),
    )
  })

  const functions: HostFunctions = {
    invoke,
    log: output.log,
    emit: output.emit,
    loadFormat,
  }
  return {
    functions,
    attach(next) {
      state.run = next
      if (next.clock) date.configure(next, next.clock)
    },
    adoptDate: date.adopt,
    get inflight() {
      return state.inflight
    },
    get emitted() {
      return output.emitted
    },
    detach() {
      state.closed = true
      state.unsettled.clear()
      date.forget(false)
    },
    close() {
      state.closed = true
      for (const resolve of state.unsettled) resolve.dispose()
      state.unsettled.clear()
      date.forget(true)
    },
    dispose() {
      for (const handle of [...Object.values(functions), ...date.handles()]) if (handle.alive) handle.dispose()
    },
    reset() {
      state.resets++
      state.run = undefined
      state.unsettled.clear()
      // a Date made during the run was in the memory just put back
      date.forget(false)
      output.reset()
      state.calls = state.inflight = state.inflightBytes = 0
      state.closed = state.over = false
    },
  }
}
