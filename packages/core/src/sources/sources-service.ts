/**
 * Adding, listing, syncing and removing sources. The admin operations are Effects that fail with core's typed
 * errors (errors.ts) and run to their end once started: a client hanging up does not leave half a source
 * behind. The service wires its parts: when a source is stale (./source-staleness.ts), its shared sync
 * (./source-sync.ts), adding one (./add-source.ts) and changing one (./update-source.ts). `ensureFresh`, on the
 * per-call path, stays plain.
 */
import { Effect } from "effect"
import { isServiceError } from "../errors.js"
import type { Logger, ServiceError } from "../errors.js"
import { noopMetrics } from "../seams.js"
import type { MetricsSink, SourcePlugin } from "../seams.js"
import { hasScope } from "../auth/scopes.js"
import type { Caller } from "../auth/scopes.js"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { sourceFields } from "../request-schemas.js"
import { makeAddSource } from "./add-source.js"
import { adminSteps } from "./source-admin.js"
import type { SourcesContext } from "./source-admin.js"
import { createStaleness } from "./source-staleness.js"
import { createSourceSync } from "./source-sync.js"
import { DEFAULT_SYNC_TTL_MS } from "./source-view.js"
import type { SourceView } from "./source-view.js"
import { SYNC_PROGRESS_LOG_MS, syncProgress } from "./sync-progress.js"
import type { ProgressListener, SyncOptions } from "./sync-progress.js"
import { makeUpdateSource } from "./update-source.js"
import type { SourceLogins } from "../oauth/oauth-service.js"

export interface SourcesServiceOptions {
  store: CatalogStore
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** a source synced longer ago than this is re-synced before its tools are next used or listed */
  syncTtlMs?: number
  now?: () => number
  /** sources marked stale out of band, shared with the plugins that mark them (services/host-seams.ts, StaleSources) */
  stale?: Set<string>
  /** counts each sync's result for the host's metrics (default: none) */
  metrics?: MetricsSink
  /** a sync still listing after this long logs its progress, then again each time as long (default 1 s) */
  progressLogMs?: number
  /** OAuth's part in adding and changing sources (oauth/oauth-service.ts `logins`), on a host that logs sources in */
  logins?: SourceLogins
}

export { DEFAULT_SYNC_TTL_MS, handleOf } from "./source-view.js"
export type { SourceView } from "./source-view.js"
export type { SyncOptions } from "./sync-progress.js"
export type { SourceUpdate } from "./update-source.js"

export const createSourcesService = ({
  store,
  plugins,
  logger,
  syncTtlMs = DEFAULT_SYNC_TTL_MS,
  now = Date.now,
  stale = new Set<string>(),
  metrics = noopMetrics,
  progressLogMs = SYNC_PROGRESS_LOG_MS,
  logins,
}: SourcesServiceOptions) => {
  const context: SourcesContext = {
    store,
    logger,
    now,
    metrics,
    logins,
    pluginFor: (kind) => plugins.find((p) => p.kind === kind),
    progressOf: (namespace, listeners) => syncProgress({ logger, now, everyMs: progressLogMs }, namespace, listeners),
  }
  const staleness = createStaleness({ syncTtlMs, now, stale })
  const syncs = createSourceSync({ ...context, staleness })
  const steps = adminSteps(context)
  const { attempt, found, view, viewOf } = steps

  /** A sync's failure value into the error channel. */
  const synced = (row: SourceRow, onProgress?: ProgressListener) =>
    Effect.flatMap(
      Effect.promise(() => syncs.sync(row, onProgress)),
      (result): Effect.Effect<SourceRow, ServiceError> =>
        isServiceError(result) ? Effect.fail(result) : Effect.succeed(result),
    )

  return {
    /** The kinds of source this server takes, each with the schemas of its bodies (for the OpenAPI document). */
    kinds: plugins.map(({ kind, configSchema, patchSchema }) => ({ kind, configSchema, patchSchema })),

    ensureFresh: syncs.ensureFresh,

    /** Re-syncs every stale source (or the one named), sharing syncs already running. */
    async ensureFreshNamespace(namespace?: string): Promise<void> {
      const rows = namespace ? [await store.getSource(namespace)] : await store.listSources()
      await Promise.all(rows.filter((r): r is SourceRow => r !== null).map(syncs.ensureFresh))
    },

    markStale(sourceId: string) {
      staleness.mark(sourceId)
    },

    /**
     * A call could not start or reach its source (the plugin's `connectFailed`): its status says so, with the
     * reason, as a failed sync's does, until a sync succeeds; the next use syncs it first.
     */
    async recordConnectFailure(row: SourceRow, message: string): Promise<void> {
      staleness.mark(row.id)
      // a dead source called again and again is written once, not once a call
      if (row.status === "error" && row.syncError === message) return
      // the call's own failure is what its script sees; a store that cannot take the status only loses the status
      await store.recordSyncError(row.id, message, now()).catch((cause) =>
        logger.warn("could not record a source's failed connection", {
          namespace: row.namespace,
          error: cause instanceof Error ? cause.message : String(cause),
        }),
      )
    },

    /** `POST /v1/sources` (./add-source.ts). */
    add: makeAddSource({ ...context, steps, sourceRequest: sourceFields(plugins.map((p) => p.kind)) }),

    /** `GET /v1/sources`, which a `read` key may ask: a caller without admin sees less of each config (SourcePlugin.redactConfig). */
    async list(caller: Caller): Promise<SourceView[]> {
      const viewer = hasScope(caller, "admin") ? "admin" : "reader"
      const grants = new Map((await store.listSourceAuth()).map((grant) => [grant.sourceId, grant]))
      return Promise.all((await store.listSources()).map((row) => view(row, viewer, grants.get(row.id) ?? null)))
    },

    /** `GET /v1/sources/:namespace`: one source, as an admin sees it (with its login, for a source that logs in). */
    get: Effect.fnUntraced(function* (namespace: string) {
      return yield* viewOf(yield* found(namespace))
    }),

    /**
     * `POST /v1/sources/:namespace/sync`: re-syncs now, sharing a sync already running. `onProgress` hears each page
     * of the listing (of a running sync, the pages after it joined).
     */
    sync: Effect.fnUntraced(function* (namespace: string, options: SyncOptions = {}) {
      return yield* viewOf(yield* synced(yield* found(namespace), options.onProgress))
    }, Effect.uninterruptible),

    /** `PATCH /v1/sources/:namespace` (./update-source.ts). */
    update: makeUpdateSource({ ...context, steps, staleness, syncs }),

    /** `DELETE /v1/sources/:namespace`: the source and its tools go; its plugin drops its connections. */
    remove: Effect.fnUntraced(function* (namespace: string) {
      const row = yield* found(namespace)
      yield* attempt("delete source", () => store.deleteSource(row.id))
      yield* Effect.promise(async () => context.pluginFor(row.kind)?.release(row.id))
    }, Effect.uninterruptible),
  }
}

export type SourcesService = ReturnType<typeof createSourcesService>
