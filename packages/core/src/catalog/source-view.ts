/** What the API shows of a source, and what a plugin is handed of one. */
import type { SourceHandle } from "../seams.js"
import type { SourceRow, SourceStatus } from "./rows.js"

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

export const DEFAULT_SYNC_TTL_MS = 15 * 60_000

export const handleOf = (row: SourceRow): SourceHandle => ({
  id: row.id,
  namespace: row.namespace,
  kind: row.kind,
  config: row.config,
})
