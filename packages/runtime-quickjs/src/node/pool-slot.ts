import { MessageChannel, Worker } from "node:worker_threads"
import type { ResourceLimits } from "node:worker_threads"
import type { LogEntry, RunLimits } from "@switchboard/core"
import { HandoffEnd, Signal, signalsBytes } from "./handoff.js"
import { readLogMirror } from "./log-mirror.js"
import type { FromWorker, PoolWorkerData, ToWorker } from "./protocol.js"

/** The bundled worker, a build output (plain JavaScript: a worker thread cannot load TypeScript by itself). */
export const poolWorkerFile = new URL("../../dist/pool-worker.mjs", import.meta.url)

export interface SlotEvents {
  message(slot: PoolSlot, message: FromWorker): void
  /** the thread ended without being asked to (an uncaught error, its V8 heap ran out) */
  died(slot: PoolSlot, cause: unknown): void
}

let nextSlotId = 0

/** One worker thread of the pool. */
export class PoolSlot {
  readonly id = ++nextSlotId
  /** resolves once the worker has loaded its QuickJS module; rejects when it dies first */
  readonly ready: Promise<void>
  /** the run the worker is busy with */
  runId: number | undefined
  /** the size of the worker's WebAssembly memory, as last reported */
  wasmBytes = 0
  /** its size when the worker had loaded its module, before any run */
  readyWasmBytes = 0
  /** messages to and from the worker; the pool polls it while a run is expected to answer soon */
  readonly handoff: HandoffEnd<FromWorker, ToWorker>
  private readonly worker: Worker
  private readonly logs: SharedArrayBuffer
  private ended = false
  /** the thread ended and what it sent before is being heard: no run may go to it meanwhile */
  private dying = false

  constructor(
    data: Pick<
      PoolWorkerData,
      "memoryCapBytes" | "recycleAboveBytes" | "snapshots" | "clearMemory" | "failAfterAnswer"
    > & { logMirrorBytes: number; workerFile: URL },
    resourceLimits: ResourceLimits | undefined,
    events: SlotEvents,
  ) {
    const { port1, port2 } = new MessageChannel()
    const signals = new SharedArrayBuffer(signalsBytes)
    const { logMirrorBytes, workerFile, ...shared } = data
    this.logs = new SharedArrayBuffer(logMirrorBytes)
    this.worker = new Worker(workerFile, {
      workerData: { ...shared, port: port2, signals, logs: this.logs } satisfies PoolWorkerData,
      transferList: [port2],
      ...(resourceLimits ? { resourceLimits } : {}),
      // the worker writes nothing; never let a stray write reach the host's stdio
      stdout: true,
      stderr: true,
    })
    this.worker.stdout.resume()
    this.worker.stderr.resume()
    let markReady: () => void
    let failStart: (cause: unknown) => void
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      failStart = reject
    })
    let started = false
    this.handoff = new HandoffEnd<FromWorker, ToWorker>(
      port1,
      new Int32Array(signals),
      Signal.toWorker,
      Signal.toMain,
      (message) => {
        if (this.ended) return
        if (message.type === "ready") {
          started = true
          this.wasmBytes = message.wasmBytes
          this.readyWasmBytes = message.wasmBytes
          markReady()
        } else events.message(this, message)
      },
    )
    this.handoff.unref()
    const onEnd = (cause: unknown) => {
      if (this.ended) return
      // what the worker sent before it ended (a run's outcome) is heard first
      this.dying = true
      if (started) this.handoff.drain()
      this.ended = true
      if (!started) failStart(cause)
      else events.died(this, cause)
    }
    this.worker.on("error", onEnd)
    this.worker.on("exit", (code) => onEnd(new Error(`the worker exited with code ${code}`)))
  }

  get alive(): boolean {
    return !this.ended && !this.dying
  }

  /** how long the worker last took between answering a run and being ready for the next, in ms */
  get prepareMs(): number {
    return Atomics.load(this.handoff.signals, Signal.prepareUs) / 1000
  }

  /** idle with a prepared sandbox: a run sent now starts at once */
  get prepared(): boolean {
    return Atomics.load(this.handoff.signals, Signal.ready) === 1
  }

  /**
   * Lets the worker busy-wait for what it expects (handoff.ts): tool results while it runs, its next run
   * while it is idle; taking it back stops a poll already under way.
   */
  set mayPoll(allowed: boolean) {
    Atomics.store(this.handoff.signals, Signal.mayPoll, allowed ? 1 : 0)
  }

  /**
   * Marks `runId` as a run this busy worker is to start later, in a free claim word (Signal.claims); post it
   * with the word's index this returns. Undefined when both words hold runs the worker has not started.
   */
  markWaiting(runId: number): number | undefined {
    // only the pool writes a run id (the worker only clears): a word seen free stays free until the pool fills it
    for (const claim of Signal.claims)
      if (Atomics.compareExchange(this.handoff.signals, claim, 0, runId) === 0) return claim
    return undefined
  }

  /** a claim word is free: the pool may send this worker one more run to wait */
  get mayTakeWaiting(): boolean {
    return Signal.claims.some((claim) => Atomics.load(this.handoff.signals, claim) === 0)
  }

  /** Takes a run sent to wait back; false when the worker already started it. */
  takeBack(runId: number, claim: number): boolean {
    return Atomics.compareExchange(this.handoff.signals, claim, runId, 0) === runId
  }

  /** What run `runId` logged so far, read from the worker's log mirror (it may be dead); undefined for another run. */
  logsOf(runId: number, limits: Pick<RunLimits, "maxLogLines" | "maxLogBytes">): LogEntry[] | undefined {
    return readLogMirror(this.logs, runId, limits)
  }

  post(message: ToWorker): void {
    if (!this.ended) this.handoff.send(message)
  }

  /** Ends the thread wherever it is (inside a long builtin too); its memory goes back to the OS. */
  kill(): Promise<void> {
    this.ended = true
    this.runId = undefined
    this.handoff.close()
    return this.worker.terminate().then(
      () => undefined,
      () => undefined,
    )
  }
}
