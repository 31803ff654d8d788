/**
 * The tags of the seams a host provides: the catalog store, the source plugins, the code runtime, the telemetry
 * sink, the metrics sink (optional), the logger, and the set of sources marked stale out of band. core declares them
 * and never provides one; a host's layers do (apps/server's compose.ts).
 * Time is Effect's own `Clock` service, read through `nowFrom` below.
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { CatalogStore as CatalogStoreShape } from "../catalog/rows.js"
import type { Logger as LoggerShape } from "../errors.js"
import type { OAuthService } from "../oauth/oauth-service.js"
import { noopMetrics } from "../seams.js"
import type {
  CodeRuntime as CodeRuntimeShape,
  MetricsSink as MetricsSinkShape,
  SourcePlugin,
  TelemetrySink as TelemetrySinkShape,
} from "../seams.js"

/** The catalog every part of a host reads and writes through (on the Node host, the sealed store). */
export class CatalogStore extends Context.Service<CatalogStore, CatalogStoreShape>()(
  "@switchboard/core/CatalogStore",
) {}

/** Every plugin the host runs, one per source kind. */
export class SourcePlugins extends Context.Service<SourcePlugins, readonly SourcePlugin[]>()(
  "@switchboard/core/SourcePlugins",
) {}

/** Where scripts run. */
export class CodeRuntime extends Context.Service<CodeRuntime, CodeRuntimeShape>()("@switchboard/core/CodeRuntime") {}

/** Where execution records go: the catalog store unless a host provides another sink. */
export class TelemetrySink extends Context.Service<TelemetrySink, TelemetrySinkShape>()(
  "@switchboard/core/TelemetrySink",
) {
  /** The records go to the catalog's own database. */
  static readonly fromStore: Layer.Layer<TelemetrySink, never, CatalogStore> = Layer.effect(TelemetrySink, CatalogStore)
}

/** Counts for a host's metrics; a host that keeps none provides nothing and gets the no-op. */
export const MetricsSink: Context.Reference<MetricsSinkShape> = Context.Reference("@switchboard/core/MetricsSink", {
  defaultValue: () => noopMetrics,
})

/** The host's logger; core never writes to a console of its own. */
export class Logger extends Context.Service<Logger, LoggerShape>()("@switchboard/core/Logger") {}

/**
 * The clock as a plain function, read once when a service is made: the per-call path (ensureFresh, the tool
 * invoker, records) asks the time without running an Effect, and a test's `TestClock` still moves it.
 */
export const nowFrom: Effect.Effect<() => number> = Effect.map(
  Clock.Clock,
  (clock) => () => clock.currentTimeMillisUnsafe(),
)

/**
 * Sources told stale out of band (`notifications/tools/list_changed`, an upstream that no longer knows a listed
 * tool): a plugin marks them, the sources service re-syncs them before their tools are next used. A service of
 * its own because the plugins are made before the sources service that reads it.
 */
export class StaleSources extends Context.Service<StaleSources, Set<string>>()("@switchboard/core/StaleSources") {
  static readonly layer: Layer.Layer<StaleSources> = Layer.sync(StaleSources, () => new Set<string>())
}

/**
 * OAuth for sources (oauth/oauth-service.ts): a host makes it from its database's store, its secret box and its
 * egress fetch, before its plugins, which take its `credentials`; the API's login routes read it.
 */
export class OAuth extends Context.Service<OAuth, OAuthService>()("@switchboard/core/OAuth") {}
