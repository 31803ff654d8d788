/** The service tags and layers of core: the seams a host provides, and core's services made from them. */
export {
  CatalogStore,
  CodeRuntime,
  Logger,
  MetricsSink,
  OAuth,
  SourcePlugins,
  StaleSources,
  nowFrom,
} from "./host-seams.js"
export { ApiKeys, Approvals, Executor, Policies, Sources } from "./domain.js"
export { coreLayer } from "./core-layer.js"
