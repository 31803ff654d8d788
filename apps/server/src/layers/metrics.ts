/**
 * The host's Prometheus metrics (../telemetry/metrics.ts), when it keeps them (`metrics: true`: the server), and core's
 * MetricsSink from them. A host that keeps none (the CLI's commands) provides the no-op, and has no GET /metrics.
 */
import { Context, Effect, Layer } from "effect"
import { Services, noopMetrics } from "@switchboard/core"
import type { WorkerPoolStats } from "@switchboard/runtime-quickjs/node"
import type { PrometheusMetrics } from "../telemetry/metrics.js"

/** the worker pool's `stats`, when the runtime is the pool */
const statsOf = (runtime: object): (() => WorkerPoolStats) | undefined => {
  const { stats } = runtime as { stats?: unknown }
  return typeof stats === "function" ? () => stats.call(runtime) as WorkerPoolStats : undefined
}

/** null when the host keeps no metrics; a Reference, so a layer built without it (tests) still builds a host */
export const HostMetrics = Context.Reference<PrometheusMetrics | null>("@switchboard/server/HostMetrics", {
  defaultValue: () => null,
})

export const metricsLayer = (enabled: boolean): Layer.Layer<never, never, Services.CodeRuntime> => {
  if (!enabled) return Layer.empty
  // loaded only here, as a command that keeps no metrics needs none of it (prom-client itself loads later still:
  // at `load`, which a server calls once its port is open, or at the first scrape)
  const metrics = Layer.effect(
    HostMetrics,
    Effect.flatMap(Services.CodeRuntime, (runtime) =>
      Effect.promise(async () => (await import("../telemetry/metrics.js")).createPrometheusMetrics(statsOf(runtime))),
    ),
  )
  return Layer.effect(
    Services.MetricsSink,
    Effect.map(HostMetrics, (prometheus) => prometheus?.sink ?? noopMetrics),
  ).pipe(Layer.provideMerge(metrics))
}
