/**
 * Where scripts run, as core's CodeRuntime: the worker pool (a scoped resource: its threads are terminated when
 * the layer is released), one QuickJS module on the main thread, or a runtime the caller made and keeps. Each is
 * loaded only when chosen: a server never loads QuickJS or its TypeScript stripper on its main thread.
 */
import { Effect, Layer } from "effect"
import { Services, defaultLimits } from "@switchboard/core"
import type { CodeRuntime, RunLimits } from "@switchboard/core"
import { startWorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"
import { poolWorkerFile } from "../build-outputs.js"
import { type StartFailed, startStep } from "./start-failed.js"

export interface RuntimeOptions {
  runtime?: "pool" | "in-thread" | CodeRuntime
  workers?: number
  queue?: number
  limits?: Partial<RunLimits>
  /**
   * The host is built while the pool's threads load (a run waits in the pool's queue for the first), and
   * `runtimeStarted(host.runtime)` settles when they have. `startServer` sets it, to listen meanwhile.
   */
  workersInBackground?: boolean
}

/** Each worker's WebAssembly memory ceiling: twice the QuickJS limit, room for the module's own 16 MiB. */
const wasmCeiling = (limits: RunLimits) => Math.max(64 << 20, 2 * limits.memoryBytes)

/** Settles when the runtime can run (a pool started in the background: once its workers have loaded). */
export const runtimeStarted = (runtime: CodeRuntime): Promise<void> =>
  (runtime as { started?: Promise<void> }).started ?? Promise.resolve()

export const runtimeLayer = (options: RuntimeOptions): Layer.Layer<Services.CodeRuntime, StartFailed> => {
  const runtime = options.runtime ?? "pool"
  const limits: RunLimits = { ...defaultLimits, ...options.limits }
  // a runtime the caller passed in is the caller's to close
  if (typeof runtime !== "string") return Layer.succeed(Services.CodeRuntime, runtime)
  if (runtime === "in-thread")
    return Layer.effect(
      Services.CodeRuntime,
      startStep("load QuickJS", async () => {
        const { createQuickJsRuntime } = await import("./in-thread-runtime.js")
        return createQuickJsRuntime({ memoryCapBytes: wasmCeiling(limits) })
      }),
    )
  return Layer.effect(
    Services.CodeRuntime,
    Effect.acquireRelease(
      startStep("start the worker pool", async () => {
        const pool = startWorkerPoolRuntime({
          size: options.workers,
          queueLimit: options.queue,
          memoryCapBytes: wasmCeiling(limits),
          // each worker keeps a copy of its run's log as large as the server's log limits, for runs it is killed in
          logLimits: limits,
          workerFile: poolWorkerFile(),
        })
        if (!options.workersInBackground) await pool.started
        return pool
      }),
      (pool) => Effect.promise(() => pool.close()),
    ),
  )
}
