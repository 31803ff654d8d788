/**
 * A source's sync, shared: concurrent triggers for one source wait on the same discovery, so a burst of calls to a
 * stale source costs one round of `tools/list`, and a caller that joins a running sync follows its pages from then
 * on. A sync's failure is a value, not a rejection: lazy re-syncs on the per-call path share it without an Effect.
 */
import { Conflict, InvalidInput, NotFound, SecretsUnreadable, internalError, isServiceError } from "../errors.js"
import type { Logger, ServiceError } from "../errors.js"
import type { MetricsSink, SourcePlugin } from "../seams.js"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { discoveryError } from "./source-discovery.js"
import type { Staleness } from "./source-staleness.js"
import { handleOf } from "./source-view.js"
import type { ProgressListener, ProgressOf } from "./sync-progress.js"

export interface SourceSyncOptions {
  store: CatalogStore
  logger: Logger
  now: () => number
  metrics: MetricsSink
  pluginFor: (kind: string) => SourcePlugin | undefined
  progressOf: ProgressOf
  staleness: Staleness
}

export type SourceSync = ReturnType<typeof createSourceSync>

export const createSourceSync = ({
  store,
  logger,
  now,
  metrics,
  pluginFor,
  progressOf,
  staleness,
}: SourceSyncOptions) => {
  const inflight = new Map<string, Promise<SourceRow | ServiceError>>()
  /** who follows the sync of each source: a caller that joins a running sync hears its pages from then on */
  const followers = new Map<string, Set<ProgressListener>>()
  const follow = (sourceId: string, listener: ProgressListener | undefined) => {
    if (!listener) return () => {}
    const set = followers.get(sourceId) ?? new Set()
    followers.set(sourceId, set.add(listener))
    return () => {
      set.delete(listener)
      if (set.size === 0 && followers.get(sourceId) === set) followers.delete(sourceId)
    }
  }

  const runSync = async (row: SourceRow): Promise<SourceRow | ServiceError> => {
    staleness.syncing(row.id)
    // its secrets are placeholders: a plugin must never connect with them
    if (row.secretsError) return new SecretsUnreadable({ message: row.secretsError })
    const plugin = pluginFor(row.kind)
    if (!plugin) return new InvalidInput({ message: `no plugin handles sources of kind "${row.kind}"` })
    // read at each page: a caller that joins later (even a sync started with no follower) hears the pages after
    const progress = progressOf(row.namespace, () => followers.get(row.id) ?? [])
    const discovered = await plugin.discover(handleOf(row), { onProgress: progress.onProgress })
    const at = now()
    if (!discovered.ok) {
      // a login to make is the source's state, not a failure: its tools stay until it is made
      if (discovered.authRequired) {
        await store.recordNeedsLogin(row.id, discovered.message, at)
        return new Conflict({ message: discovered.message })
      }
      // a refusal is this server's configuration, not the source's state: another server sharing the catalog may run it
      if (!discovered.refused) await store.recordSyncError(row.id, discovered.message, at)
      return discoveryError(discovered, `sync of "${row.namespace}" failed`)
    }
    progress.end()
    await store.applySync({ sourceId: row.id, ...discovered.discovery, syncedAt: at })
    const fresh = await store.getSource(row.namespace)
    return fresh ?? new NotFound({ message: `source "${row.namespace}" was removed during its sync` })
  }

  /** One sync per source at a time; later callers share the running one (and follow its progress from then on). */
  const sync = (row: SourceRow, onProgress?: ProgressListener): Promise<SourceRow | ServiceError> => {
    const unfollow = follow(row.id, onProgress)
    let running = inflight.get(row.id)
    if (!running) {
      const started = runSync(row)
        .catch((cause) => internalError(logger, "source sync", cause))
        .then((result) => (metrics.syncEnded(row.namespace, !isServiceError(result)), result))
        .finally(() => inflight.delete(row.id))
      inflight.set(row.id, started)
      running = started
    }
    return onProgress ? running.finally(unfollow) : running
  }

  /** Re-syncs a stale source first; a failed lazy sync keeps the old catalog (and records sync_error). */
  const ensureFresh = async (row: SourceRow): Promise<SourceRow> => {
    // a source waiting for a login is synced by the login, not by each call
    if (row.secretsError || row.status === "needs_login" || !staleness.isStale(row)) return row
    const synced = await sync(row)
    if (isServiceError(synced)) {
      staleness.failed(row.id)
      logger.warn("lazy re-sync failed; serving the previous catalog", {
        namespace: row.namespace,
        error: synced.message,
      })
      return row
    }
    staleness.succeeded(row.id)
    return synced
  }

  /** the sync of this source running now, if one is */
  const running = (sourceId: string) => inflight.get(sourceId)

  return { sync, ensureFresh, running }
}
