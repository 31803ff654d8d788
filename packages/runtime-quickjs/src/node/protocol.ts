/**
 * Messages between the pool (main thread) and a pool worker. Every message of a run carries its `runId`,
 * so a message about a run that already ended (a late tool result, a late outcome) is recognised and dropped.
 */
import type { MessagePort } from "node:worker_threads"
import type * as Render from "@switchboard/core/render"
import type { RunDeterminism, RunLimits, RunOutcome } from "@switchboard/core"

/** What the pool passes to a new worker. */
export interface PoolWorkerData {
  /** the hard ceiling of the worker's WebAssembly memory */
  memoryCapBytes: number
  /** after a run that grew WebAssembly memory past this, the pool replaces the worker: it starts no waiting run */
  recycleAboveBytes: number
  /** put one sandbox back as it was made after each run, where the module allows (sandbox-snapshot.ts) */
  snapshots: boolean
  /** zero what a run dirtied outside the snapshot at each restore (benchmarks alone turn it off; WorkerPoolOptions) */
  clearMemory: boolean
  /** tests only: fail right after answering each run, as a failed clean-up would (WorkerPoolOptions) */
  failAfterAnswer: boolean
  /** the worker's end of the channel every message of the pool travels on (see handoff.ts) */
  port: MessagePort
  /** an Int32Array over it is indexed by `Signal` */
  signals: SharedArrayBuffer
  /** the copy of the current run's log, which the pool reads when it kills the worker (log-mirror.ts) */
  logs: SharedArrayBuffer
}

/** A run's outcome as a worker posts it: a large object or array as its JSON text (`rendered.json`) without the value. */
export type PostedOutcome =
  | RunOutcome
  | (Omit<Extract<RunOutcome, { ok: true }>, "value" | "rendered"> & {
      rendered: Render.RenderedResult & { json: string }
    })

/**
 * Tool calls and their answers travel in batches: each message costs both threads a structured clone and an
 * event, whatever its size, and a script awaiting many calls at once makes and gets them in bursts.
 */
export interface ToolCall {
  callId: number
  path: string
  argsJson: string
  /** the Date reads since the run's previous call, with determinism (InvokeTool); absent when none */
  clockReads?: readonly number[]
}

export interface ToolAnswer {
  callId: number
  resultJson: string
  /** how long the host took to answer, which tells the worker whether polling for results pays */
  hostMs: number
}

export type ToWorker =
  /**
   * `claim`: sent while the worker is busy, to start when it is done unless the pool takes it back first (the
   * index of its claim word, Signal.claims); `deadline`: the job's (epoch ms, the clock every thread shares), so a
   * wait in the worker counts;
   * `render`: the worker renders the result for the caller (RunOptions.render), off the main thread;
   * `determinism`: RunOptions.determinism, applied in the worker
   */
  | {
      type: "run"
      runId: number
      code: string
      limits: RunLimits
      deadline: number
      claim?: number
      render?: Render.RenderOptions | undefined
      determinism?: RunDeterminism | undefined
    }
  /** the answers to a run's tool calls that came in one turn of the main thread's event loop */
  | { type: "results"; runId: number; results: ToolAnswer[] }
  | { type: "abort"; runId: number }

export type FromWorker =
  | { type: "ready"; wasmBytes: number }
  /** the tool calls a run made in one turn of the worker's event loop (a `Promise.all` makes many) */
  | { type: "calls"; runId: number; calls: ToolCall[] }
  | { type: "done"; runId: number; outcome: PostedOutcome; poisoned: boolean; wasmBytes: number }
  /**
   * Disposing the last run's sandbox (after its outcome went out) or preparing the next one failed: the
   * module is unusable. A run the pool sent meanwhile never started; the pool runs it on another worker.
   */
  | { type: "poisoned" }
