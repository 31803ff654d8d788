/** The service tags and layers of core: the seams a host provides, and core's services made from them. */
export {
  CatalogStore,
  CodeRuntime,
  Logger,
  MetricsSink,
  SourcePlugins,
  StaleSources,
  TelemetrySink,
  nowFrom,
} from "./seams.js"
export { ApiKeys, Executor, Sources } from "./domain.js"
export type { ExecutorLayerOptions, SourcesOptions } from "./domain.js"
