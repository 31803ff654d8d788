/**
 * The sandbox's Date and the run's clock (prelude/date.ts): the bridge hands Date a run's clock to replay, and takes
 * the reads Date recorded since the last tool call, to go with that call. Date's functions made before any run (a
 * snapshot's sandbox) last as long as the sandbox; made during a run, as long as the run.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { BridgeRun, BridgeState } from "./bridge-state.js"
import { failRun } from "./bridge-state.js"
import type { RunClock } from "./determinism.js"
import { runErrors } from "./run-errors.js"

export type BridgeDate = ReturnType<typeof bridgeDate>

export const bridgeDate = (ctx: QuickJSContext, state: BridgeState) => {
  /** the functions of the sandbox's Date, once made (`adopt`) */
  let date: { configure: QuickJSHandle; takeReads: QuickJSHandle; duringRun: boolean } | undefined

  /**
   * Gives the sandbox's Date the run's clock; a failure (out of memory) ends the run, which would not repeat. A clock
   * with nothing to replay is not handed over: Date records from the real clock as it was made (prelude/date.ts),
   * and a guest call at the start of every run slows the execute path's warm-up (bench/warmup.ts).
   */
  const configure = (current: BridgeRun, clock: RunClock) => {
    if (!date || !clock.replays) return
    const configured = ctx
      .newString(clock.config())
      .consume((json) => ctx.callFunction(date!.configure, ctx.undefined, json))
    if (!configured.error) return configured.value.dispose()
    configured.error.dispose()
    failRun(state, current, runErrors.internal("the run's clock could not be given to Date"))
  }

  /** Forgets the Date functions made during a run, freeing them when `free` (not after a restore). */
  const forget = (free: boolean) => {
    if (!date?.duringRun) return
    if (free) for (const handle of [date.configure, date.takeReads]) if (handle.alive) handle.dispose()
    date = undefined
  }

  return {
    configure,
    forget,

    /** The Date reads since the last tool call, from the guest (a JSON array), or undefined when there were none. */
    takeReads(): number[] | undefined {
      if (!date) return undefined
      const taken = ctx.callFunction(date.takeReads, ctx.undefined)
      // it only stringifies an array of numbers: it fails only when the run is ending anyway (out of memory, interrupted)
      if (taken.error) return taken.error.consume(() => undefined)
      return taken.value.consume((json) =>
        ctx.typeof(json) === "string" ? (JSON.parse(ctx.getString(json)) as number[]) : undefined,
      )
    },

    /** HostBridge.adoptDate */
    adopt(configureHandle: QuickJSHandle, takeReads: QuickJSHandle) {
      forget(true)
      date = { configure: configureHandle, takeReads, duringRun: state.run !== undefined }
      // made during a run with determinism: it gets the run's clock at once
      if (state.run?.clock) configure(state.run, state.run.clock)
    },

    /** the handles to free with the bridge */
    handles(): QuickJSHandle[] {
      return date ? [date.configure, date.takeReads] : []
    },
  }
}
