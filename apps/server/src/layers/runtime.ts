/**
 * Where scripts run, as core's CodeRuntime: the worker pool (a scoped resource: its threads are terminated when
 * the layer is released), one QuickJS module on the main thread, or a runtime the caller made and keeps.
 */
import { Effect, Layer } from "effect"
import { Services, defaultLimits } from "@switchboard/core"
import type { CodeRuntime, RunLimits } from "@switchboard/core"
import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import { createWorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"
import { type StartFailed, startStep } from "./start-failed.js"

export interface RuntimeOptions {
  runtime?: "pool" | "in-thread" | CodeRuntime
  workers?: number
  queue?: number
  limits?: Partial<RunLimits>
}

/** Each worker's WebAssembly memory ceiling: twice the QuickJS limit, room for the module's own 16 MiB. */
const wasmCeiling = (limits: RunLimits) => Math.max(64 << 20, 2 * limits.memoryBytes)

export const runtimeLayer = (options: RuntimeOptions): Layer.Layer<Services.CodeRuntime, StartFailed> => {
  const runtime = options.runtime ?? "pool"
  const limits: RunLimits = { ...defaultLimits, ...options.limits }
  // a runtime the caller passed in is the caller's to close
  if (typeof runtime !== "string") return Layer.succeed(Services.CodeRuntime, runtime)
  if (runtime === "in-thread")
    return Layer.effect(
      Services.CodeRuntime,
      startStep("load QuickJS", () => createQuickJsRuntime({ memoryCapBytes: wasmCeiling(limits) })),
    )
  return Layer.effect(
    Services.CodeRuntime,
    Effect.acquireRelease(
      // each worker keeps a copy of its run's log as large as the server's log limits, for runs it is killed in
      startStep("start the worker pool", () =>
        createWorkerPoolRuntime({
          size: options.workers,
          queueLimit: options.queue,
          memoryCapBytes: wasmCeiling(limits),
          logLimits: limits,
        }),
      ),
      (pool) => Effect.promise(() => pool.close()),
    ),
  )
}
