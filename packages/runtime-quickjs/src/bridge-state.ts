/** What the host bridge's parts (host-bridge.ts) share: the run it serves, and that run's calls in flight. */
import type { InvokeTool, RunError, RunLimits } from "@switchboard/core"
import type { QuickJSHandle } from "quickjs-emscripten-core"
import type { RunClock } from "./determinism.js"
import type { LogBuffer } from "./log-buffer.js"

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

/** One object, written in place by the parts; `reset` in host-bridge.ts makes it as it was made. */
export interface BridgeState {
  /** the run the host functions serve; until `attach`, they do nothing */
  run: BridgeRun | undefined
  /** the resolve function of every call still waiting for its result */
  readonly unsettled: Set<QuickJSHandle>
  calls: number
  inflight: number
  /** UTF-8 bytes of the path and arguments of the calls in flight */
  inflightBytes: number
  /** the run has ended: a result that arrives now must never touch the (disposed) context */
  closed: boolean
  /** past a limit the bridge enforces: later calls and blocks are not even read */
  over: boolean
  /** how many times the bridge was reset: a call belongs to the run of its generation */
  resets: number
}

export const newBridgeState = (): BridgeState => ({
  run: undefined,
  unsettled: new Set(),
  calls: 0,
  inflight: 0,
  inflightBytes: 0,
  closed: false,
  over: false,
  resets: 0,
})

/** The run went past a limit the bridge enforces: it is over. */
export const failRun = (state: BridgeState, current: BridgeRun, error: RunError) => {
  state.over = true
  current.events.fail(error)
}
