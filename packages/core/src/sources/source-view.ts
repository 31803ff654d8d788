/** What the API shows of a source, and what a plugin is handed of one. */
import type { ConfigViewer, SourceHandle, SourcePlugin } from "../seams.js"
import type { SourceRow, SourceStatus } from "../catalog/rows.js"

export interface SourceView {
  namespace: string
  kind: string
  status: SourceStatus
  toolCount: number
  lastSyncedAt: string | null
  syncError: string | null
  /** the config with every secret value redacted */
  config: unknown
}

/** What a source's view is made of besides its row. */
export interface SourceViewParts {
  toolCount: number
  /** its kind's plugin, which redacts the config for `viewer` */
  plugin: Pick<SourcePlugin, "redactConfig"> | undefined
  viewer: ConfigViewer
}

/**
 * A source as the API shows it, from its row (read through the sealed store: a source whose secrets cannot be read
 * is listed as failing, with what to do).
 */
export const sourceView = (row: SourceRow, { toolCount, plugin, viewer }: SourceViewParts): SourceView => ({
  namespace: row.namespace,
  kind: row.kind,
  status: row.secretsError ? "error" : row.status,
  toolCount,
  lastSyncedAt: row.lastSyncedAt === null ? null : new Date(row.lastSyncedAt).toISOString(),
  syncError: row.secretsError ?? row.syncError,
  config: plugin?.redactConfig(row.config, viewer) ?? null,
})

export const DEFAULT_SYNC_TTL_MS = 15 * 60_000

export const handleOf = (row: SourceRow): SourceHandle => ({
  id: row.id,
  namespace: row.namespace,
  kind: row.kind,
  config: row.config,
})
