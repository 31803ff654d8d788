/** What the API shows of a source, and what a plugin is handed of one. */
import type { ConfigViewer, SourceHandle, SourcePlugin } from "../seams.js"
import type { SourceRow, SourceStatus } from "../catalog/rows.js"
import type { SourceAuthRow } from "../catalog/oauth-rows.js"
import { authViewOf } from "../oauth/auth-view.js"
import type { SourceAuthView } from "../oauth/auth-view.js"

export interface SourceView {
  namespace: string
  kind: string
  status: SourceStatus
  toolCount: number
  lastSyncedAt: string | null
  syncError: string | null
  /** the config with every secret value redacted */
  config: unknown
  /** its OAuth login, for a source that logs in (oauth/): its state, expiry and scopes, never a token */
  auth?: SourceAuthView
}

/** What a source's view is made of besides its row. */
export interface SourceViewParts {
  toolCount: number
  /** its kind's plugin, which redacts the config for `viewer` and says whether the source logs in with OAuth */
  plugin: Pick<SourcePlugin, "redactConfig" | "oauth"> | undefined
  viewer: ConfigViewer
  /** its OAuth grant, when it has one */
  grant?: SourceAuthRow | null
}

/**
 * A source as the API shows it, from its row (read through the sealed store: a source whose secrets cannot be read
 * is listed as failing, with what to do).
 */
export const sourceView = (
  row: SourceRow,
  { toolCount, plugin, viewer, grant = null }: SourceViewParts,
): SourceView => {
  const oauth = plugin?.oauth?.(row.config)
  // a source that logs in: one that asked for a login, has one, or was given its settings
  const logsIn = oauth && (grant !== null || row.status === "needs_login" || Object.keys(oauth.settings).length > 0)
  const expired = grant?.status === "expired"
  return {
    namespace: row.namespace,
    kind: row.kind,
    status: row.secretsError ? "error" : expired ? "needs_login" : row.status,
    toolCount,
    lastSyncedAt: row.lastSyncedAt === null ? null : new Date(row.lastSyncedAt).toISOString(),
    syncError: row.secretsError ?? (expired ? grant.error : row.syncError),
    config: plugin?.redactConfig(row.config, viewer) ?? null,
    ...(logsIn ? { auth: authViewOf(grant, oauth.settings.grant === "client_credentials") } : {}),
  }
}

export const DEFAULT_SYNC_TTL_MS = 15 * 60_000

export const handleOf = (row: SourceRow): SourceHandle => ({
  id: row.id,
  namespace: row.namespace,
  kind: row.kind,
  config: row.config,
})
