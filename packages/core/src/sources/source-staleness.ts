/**
 * When a source is synced before its next use: its TTL has passed, it is in error (the sync that succeeds makes it
 * ready), it was never synced, or it was marked stale out of band (its server said its tool list changed, or a
 * call could not reach it). After a failed lazy sync, calls use the catalog they have for a while instead of each
 * waiting on a dead server.
 */
import type { SourceRow } from "../catalog/rows.js"

export interface StalenessOptions {
  syncTtlMs: number
  now: () => number
  /** sources marked stale out of band, shared with the plugins that mark them (services/host-seams.ts, StaleSources) */
  stale: Set<string>
}

export type Staleness = ReturnType<typeof createStaleness>

export const createStaleness = ({ syncTtlMs, now, stale }: StalenessOptions) => {
  const failedAt = new Map<string, number>()
  const retryFailedMs = Math.min(syncTtlMs, 30_000)

  return {
    isStale(row: SourceRow): boolean {
      const failed = failedAt.get(row.id)
      if (failed !== undefined && now() - failed < retryFailedMs) return false
      return (
        stale.has(row.id) ||
        row.status === "error" ||
        row.lastSyncedAt === null ||
        now() - row.lastSyncedAt >= syncTtlMs
      )
    },
    mark(sourceId: string) {
      stale.add(sourceId)
    },
    /** a sync starts: it answers whatever marked the source */
    syncing(sourceId: string) {
      stale.delete(sourceId)
    },
    /** a lazy sync failed: the catalog as it is serves calls until the retry interval passes */
    failed(sourceId: string) {
      failedAt.set(sourceId, now())
    },
    succeeded(sourceId: string) {
      failedAt.delete(sourceId)
    },
    /** a new config: what was stale or failing was the config it replaced */
    replaced(sourceId: string) {
      failedAt.delete(sourceId)
      stale.delete(sourceId)
    },
  }
}
