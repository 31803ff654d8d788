import { availableParallelism } from "node:os"
import type { ResourceLimits } from "node:worker_threads"
import { defaultLimits } from "@switchboard/core"
import type { CodeRuntime, RunLimits } from "@switchboard/core"
import { logMirrorBytes } from "./log-mirror.js"
import { poolWorkerFile } from "./pool-slot.js"

export interface WorkerPoolOptions {
  /** worker threads, each running one execution at a time (default: the CPU count, at least 2) */
  size?: number
  /** executions waiting for a worker; past it a run fails at once with `overloaded` (default 64, at least 8 per worker) */
  queueLimit?: number
  /**
   * The hard ceiling of each worker's WebAssembly memory (default 128 MiB, twice the default memory limit).
   * QuickJS's own limit misses large strings and typed arrays; an allocation past this ceiling fails as
   * `memory_limit` whatever it is.
   */
  memoryCapBytes?: number
  /**
   * after a run, a worker whose WebAssembly memory grew past this is replaced, since that memory never shrinks
   * (default: 48 MiB, the module's 16 MiB and 32 MiB grown, or half the ceiling if that is less: a higher bound lets
   * a worker that once held a large string keep that memory while idle)
   */
  recycleAboveBytes?: number
  /**
   * A worker left idle for `trimIdleAfterMs` with its WebAssembly memory past this (and past its size when it
   * started) is replaced too, one at a time (default: 24 MiB, the module's 16 MiB and 8 MiB grown, or
   * `recycleAboveBytes` if that is less). Below `recycleAboveBytes` a worker keeps what a large run grew while runs
   * keep coming, and hands it back once they stop: a pause is when a new worker is least likely to keep a run waiting.
   */
  trimIdleAboveBytes?: number
  /** how long a worker past `trimIdleAboveBytes` may stay idle before it is replaced (default 3,000 ms) */
  trimIdleAfterMs?: number
  /** how long past its deadline a run may take to end by itself before its worker is killed (default 20 ms) */
  killGraceMs?: number
  /** V8 limits of each worker thread (its own heap, not the QuickJS memory) */
  resourceLimits?: ResourceLimits
  /**
   * The largest log a run may keep (default: the default limits). Each worker keeps a copy of its run's log
   * this big in memory shared with the pool, so a run whose worker is killed still returns what it logged.
   */
  logLimits?: Pick<RunLimits, "maxLogLines" | "maxLogBytes">
  /**
   * Each worker runs every script in one sandbox that it puts back, byte for byte, into the state it was made
   * in after each run, instead of making and disposing a sandbox per run (sandbox-snapshot.ts; default true).
   * A worker whose module does not allow it makes a fresh one per run, as with false.
   */
  snapshots?: boolean
  /**
   * For benchmarks only (default true): false leaves out the zeroing of what a run dirtied outside the snapshot
   * (the heap it took and its stack) at each restore, to measure what that costs. Freed memory then keeps
   * earlier runs' bytes; no server may run so.
   */
  clearMemory?: boolean
  /**
   * For tests of the pool's recovery only: each worker, right after answering a run, fails as if putting its
   * sandbox back (or disposing it) had failed. No script can cause that, so nothing else reaches the path.
   */
  failAfterAnswer?: boolean
  /**
   * The worker's bundle (default: this package's dist/pool-worker.mjs). A host bundled into one file of its own
   * (apps/server's built CLI) carries a copy beside itself and names it here.
   */
  workerFile?: URL
}

export interface WorkerPoolStats {
  size: number
  idle: number
  busy: number
  starting: number
  queued: number
  /** workers terminated and replaced: deadline kills, poisoned modules, memory recycling (after a run, or idle), deaths */
  replaced: number
}

export interface WorkerPoolRuntime extends CodeRuntime {
  stats(): WorkerPoolStats
  /** Ends every run (`aborted`), refuses new ones and terminates the workers. */
  close(): Promise<void>
}

/** a worker whose WebAssembly memory passed this after a run is replaced (see WorkerPoolOptions) */
const defaultRecycleAboveBytes = 48 << 20

const defaultTrimIdleAboveBytes = 24 << 20
const defaultTrimIdleAfterMs = 3_000

/** What every new worker is given (protocol.ts PoolWorkerData, less the channels). */
export interface WorkerConfig {
  memoryCapBytes: number
  recycleAboveBytes: number
  snapshots: boolean
  clearMemory: boolean
  failAfterAnswer: boolean
  logMirrorBytes: number
  workerFile: URL
}

/** The options with their defaults filled in. */
export const resolvePoolOptions = (options: WorkerPoolOptions) => {
  const size = Math.max(1, options.size ?? Math.max(2, availableParallelism()))
  const memoryCapBytes = options.memoryCapBytes ?? 128 << 20
  const worker: WorkerConfig = {
    memoryCapBytes,
    recycleAboveBytes: options.recycleAboveBytes ?? Math.min(defaultRecycleAboveBytes, memoryCapBytes / 2),
    snapshots: options.snapshots ?? true,
    clearMemory: options.clearMemory ?? true,
    failAfterAnswer: options.failAfterAnswer ?? false,
    logMirrorBytes: logMirrorBytes(options.logLimits ?? defaultLimits),
    workerFile: options.workerFile ?? poolWorkerFile,
  }
  const idleTrim = {
    aboveBytes: options.trimIdleAboveBytes ?? Math.min(defaultTrimIdleAboveBytes, worker.recycleAboveBytes),
    afterMs: options.trimIdleAfterMs ?? defaultTrimIdleAfterMs,
  }
  return {
    size,
    idleTrim,
    queueLimit: Math.max(0, options.queueLimit ?? Math.max(64, 8 * size)),
    killGraceMs: options.killGraceMs ?? 20,
    resourceLimits: options.resourceLimits,
    worker,
  }
}
