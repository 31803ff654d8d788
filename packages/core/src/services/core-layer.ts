/**
 * core's services as one layer, in the order they need each other: approvals on the executor, the executor on the
 * policies and the sources, every one of them on the catalog. A host provides the seams (host-seams.ts) beneath
 * it and adds its own services above it.
 */
import { Layer } from "effect"
import { ApiKeys, Approvals, Executor, Policies, Sources } from "./domain.js"
import type { ExecutorLayerOptions, PoliciesOptions, SourcesOptions } from "./domain.js"
import { TelemetrySink } from "./host-seams.js"

export interface CoreLayerOptions {
  executor?: ExecutorLayerOptions
  policies?: PoliciesOptions
  sources?: SourcesOptions
}

export const coreLayer = (options: CoreLayerOptions = {}) =>
  Approvals.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(Executor.layer(options.executor), ApiKeys.layer)),
    Layer.provideMerge(Policies.layer(options.policies)),
    Layer.provideMerge(Sources.layer(options.sources)),
    Layer.provideMerge(TelemetrySink.fromStore),
  )
