/**
 * Adding, listing, syncing and removing sources. A sync is shared: concurrent triggers for one source
 * wait on the same discovery, so a burst of calls to a stale source costs one round of `tools/list`.
 */
import {
  Conflict,
  Forbidden,
  InvalidInput,
  NotFound,
  SecretsUnreadable,
  SourceRefused,
  UpstreamFailed,
  failure,
  internalError,
  success,
} from "../errors.js"
import type { Logger, Outcome } from "../errors.js"
import type { SourceHandle, SourcePlugin } from "../seams.js"
import type { CatalogStore, SourceRow } from "./rows.js"
import { UNREADABLE_SECRET } from "../secrets/sealed-store.js"

export const NAMESPACE_PATTERN = /^[a-z][a-z0-9_]*$/

export interface SourceView {
  namespace: string
  kind: string
  status: string
  toolCount: number
  lastSyncedAt: string | null
  syncError: string | null
  /** the config with every secret value redacted */
  config: unknown
}

export interface SourcesServiceOptions {
  store: CatalogStore
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** a source synced longer ago than this is re-synced before its tools are next used or listed */
  syncTtlMs?: number
  now?: () => number
  /** sources marked stale out of band, shared with the plugins that mark them (services/seams.ts, StaleSources) */
  stale?: Set<string>
}

export const DEFAULT_SYNC_TTL_MS = 15 * 60_000

export const handleOf = (row: SourceRow): SourceHandle => ({
  id: row.id,
  namespace: row.namespace,
  kind: row.kind,
  config: row.config,
})

export const createSourcesService = ({
  store,
  plugins,
  logger,
  syncTtlMs = DEFAULT_SYNC_TTL_MS,
  now = Date.now,
  stale = new Set<string>(),
}: SourcesServiceOptions) => {
  const pluginFor = (kind: string) => plugins.find((p) => p.kind === kind)
  const inflight = new Map<string, Promise<Outcome<SourceRow>>>()

  /** after a failed lazy sync, calls use the old catalog for a while instead of each waiting on a dead server */
  const failedAt = new Map<string, number>()
  const RETRY_FAILED_SYNC_MS = Math.min(syncTtlMs, 30_000)

  const isStale = (row: SourceRow) => {
    const failed = failedAt.get(row.id)
    if (failed !== undefined && now() - failed < RETRY_FAILED_SYNC_MS) return false
    return stale.has(row.id) || row.lastSyncedAt === null || now() - row.lastSyncedAt >= syncTtlMs
  }

  const view = async (row: SourceRow): Promise<SourceView> => ({
    namespace: row.namespace,
    kind: row.kind,
    // a source whose secrets cannot be read is listed as failing, with what to do
    status: row.secretsError ? "error" : row.status,
    toolCount: await store.countTools(row.id),
    lastSyncedAt: row.lastSyncedAt === null ? null : new Date(row.lastSyncedAt).toISOString(),
    syncError: row.secretsError ?? row.syncError,
    config: pluginFor(row.kind)?.redactConfig(row.config) ?? null,
  })

  const runSync = async (row: SourceRow): Promise<Outcome<SourceRow>> => {
    stale.delete(row.id)
    // its secrets are placeholders: a plugin must never connect with them
    if (row.secretsError) return failure(new SecretsUnreadable({ message: row.secretsError }))
    const plugin = pluginFor(row.kind)
    if (!plugin) return failure(new InvalidInput({ message: `no plugin handles sources of kind "${row.kind}"` }))
    const discovered = await plugin.discover(handleOf(row))
    const at = now()
    // a refusal is this server's configuration, not the source's state: another server sharing the catalog may run it
    if (!discovered.ok && discovered.refused)
      return failure(new SourceRefused({ message: discovered.message, code: discovered.refused }))
    if (!discovered.ok) {
      await store.recordSyncError(row.id, discovered.message, at)
      return failure(
        new UpstreamFailed({ message: `sync of "${row.namespace}" failed: ${discovered.message}`, retryable: true }),
      )
    }
    await store.applySync(row.id, discovered.discovery.tools, discovered.discovery.encoding, at)
    const fresh = await store.getSource(row.namespace)
    return fresh
      ? success(fresh)
      : failure(new NotFound({ message: `source "${row.namespace}" was removed during its sync` }))
  }

  /** One sync per source at a time; later callers share the running one. */
  const sync = (row: SourceRow): Promise<Outcome<SourceRow>> => {
    const running = inflight.get(row.id)
    if (running) return running
    const started = runSync(row)
      .catch((cause) => failure(internalError(logger, "source sync", cause)))
      .finally(() => inflight.delete(row.id))
    inflight.set(row.id, started)
    return started
  }

  /** Re-syncs a stale source first; a failed lazy sync keeps the old catalog (and records sync_error). */
  const ensureFresh = async (row: SourceRow): Promise<SourceRow> => {
    if (row.secretsError || !isStale(row)) return row
    const synced = await sync(row)
    if (synced.ok) failedAt.delete(row.id)
    else failedAt.set(row.id, now())
    if (!synced.ok)
      logger.warn("lazy re-sync failed; serving the previous catalog", {
        namespace: row.namespace,
        error: synced.error.message,
      })
    return synced.ok ? synced.value : row
  }

  return {
    ensureFresh,

    /** Re-syncs every stale source (or the one named), sharing syncs already running. */
    async ensureFreshNamespace(namespace?: string): Promise<void> {
      const rows = namespace ? [await store.getSource(namespace)] : await store.listSources()
      await Promise.all(rows.filter((r): r is SourceRow => r !== null).map(ensureFresh))
    },

    markStale(sourceId: string) {
      stale.add(sourceId)
    },

    async add(body: unknown): Promise<Outcome<SourceView>> {
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return failure(
          new InvalidInput({ message: "the body must be a JSON object with namespace, kind and the source's config" }),
        )
      }
      const { namespace, kind, ...config } = body as Record<string, unknown>
      if (typeof namespace !== "string" || !NAMESPACE_PATTERN.test(namespace)) {
        return failure(
          new InvalidInput({
            message: `namespace must match ${NAMESPACE_PATTERN.source} (got ${JSON.stringify(namespace)})`,
          }),
        )
      }
      if (typeof kind !== "string")
        return failure(
          new InvalidInput({ message: `kind must be a string, one of: ${plugins.map((p) => p.kind).join(", ")}` }),
        )
      const plugin = pluginFor(kind)
      if (!plugin)
        return failure(
          new InvalidInput({
            message: `unknown source kind "${kind}"; known kinds: ${plugins.map((p) => p.kind).join(", ")}`,
          }),
        )
      const checked = plugin.validateConfig(config)
      if (!checked.ok)
        return failure(
          checked.reason === "forbidden"
            ? new Forbidden({ message: checked.message })
            : new InvalidInput({ message: checked.message }),
        )
      if (await store.getSource(namespace))
        return failure(new Conflict({ message: `a source with namespace "${namespace}" already exists` }))

      const at = now()
      const row: SourceRow = {
        id: crypto.randomUUID(),
        namespace,
        kind,
        config: checked.config,
        status: "ready",
        lastSyncedAt: null,
        syncError: null,
        createdAt: at,
        updatedAt: at,
      }
      // Discover before storing: a source that cannot be reached is not kept, so a failed add leaves nothing behind.
      const discovered = await plugin
        .discover(handleOf(row))
        .catch((cause) => ({ ok: false as const, message: internalError(logger, "source discovery", cause).message }))
      if (!discovered.ok) {
        await plugin.release(row.id)
        if ("refused" in discovered && discovered.refused)
          return failure(new SourceRefused({ message: discovered.message, code: discovered.refused }))
        return failure(
          new UpstreamFailed({ message: `could not add "${namespace}": ${discovered.message}`, retryable: true }),
        )
      }
      try {
        await store.insertSource(row)
      } catch (cause) {
        await plugin.release(row.id)
        // two adds of one namespace racing: the unique index decides
        if (await store.getSource(namespace))
          return failure(new Conflict({ message: `a source with namespace "${namespace}" already exists` }))
        return failure(internalError(logger, "insert source", cause))
      }
      try {
        await store.applySync(row.id, discovered.discovery.tools, discovered.discovery.encoding, now())
      } catch (cause) {
        // leave nothing behind: a half-added source would block the namespace with no tools
        await store.deleteSource(row.id).catch(() => undefined)
        await plugin.release(row.id)
        return failure(internalError(logger, "first sync of a new source", cause))
      }
      const stored = await store.getSource(namespace)
      return stored
        ? success(await view(stored))
        : failure(new NotFound({ message: `source "${namespace}" was removed while it was being added` }))
    },

    async list(): Promise<SourceView[]> {
      return Promise.all((await store.listSources()).map(view))
    },

    async sync(namespace: string): Promise<Outcome<SourceView>> {
      const row = await store.getSource(namespace)
      if (!row) return failure(new NotFound({ message: `no source with namespace "${namespace}"` }))
      const synced = await sync(row)
      return synced.ok ? success(await view(synced.value)) : synced
    },

    /**
     * `PATCH /v1/sources/:namespace`: replaces the fields the plugin lets a patch replace (MCP: the
     * transport's `headers`, `env` or `url`, each whole), checks the result as `add` does, stores it, drops
     * pooled connections and re-syncs. A failed re-sync keeps the new config and reports the failure in the
     * answer's `syncError`, as a failed lazy re-sync does: the old secrets may be the very thing that stopped
     * working.
     */
    async update(namespace: string, body: unknown): Promise<Outcome<SourceView>> {
      const row = await store.getSource(namespace)
      if (!row) return failure(new NotFound({ message: `no source with namespace "${namespace}"` }))
      const plugin = pluginFor(row.kind)
      if (!plugin?.mergeConfig)
        return failure(
          new InvalidInput({
            message: `sources of kind "${row.kind}" have nothing that can be replaced; delete and add the source instead`,
          }),
        )
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return failure(new InvalidInput({ message: "the body must be a JSON object holding the fields to replace" }))
      const merged = plugin.mergeConfig(row.config, body)
      if (!merged.ok) return failure(new InvalidInput({ message: merged.message }))
      // a secret that cannot be read and is not replaced here would stay unreadable
      const kept = (plugin.secretFields?.(merged.config) ?? []).filter(
        (path) =>
          path.reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], merged.config) ===
          UNREADABLE_SECRET,
      )
      if (kept.length > 0) {
        return failure(
          new SecretsUnreadable({
            message: `${kept.map((p) => p.join(".")).join(", ")} of source "${namespace}" cannot be decrypted with this server's key; send a new value for it in this PATCH too`,
          }),
        )
      }
      const checked = plugin.validateConfig(merged.config)
      if (!checked.ok)
        return failure(
          checked.reason === "forbidden"
            ? new Forbidden({ message: checked.message })
            : new InvalidInput({ message: checked.message }),
        )
      await store.updateSourceConfig(row, checked.config, now())
      // connections made with the old secrets go; the next one is made with the new
      await plugin.release(row.id)
      failedAt.delete(row.id)
      const updated = await store.getSource(namespace)
      if (!updated)
        return failure(new NotFound({ message: `source "${namespace}" was removed while it was being updated` }))
      // a sync already running uses the old config: let it end, then sync with the new one
      await inflight.get(row.id)
      const synced = await sync(updated)
      if (!synced.ok && synced.error._tag !== "UpstreamFailed") return synced
      const current = await store.getSource(namespace)
      return current
        ? success(await view(current))
        : failure(new NotFound({ message: `source "${namespace}" was removed while it was being updated` }))
    },

    async remove(namespace: string): Promise<Outcome<void>> {
      const row = await store.getSource(namespace)
      if (!row) return failure(new NotFound({ message: `no source with namespace "${namespace}"` }))
      await store.deleteSource(row.id)
      await pluginFor(row.kind)?.release(row.id)
      return success(undefined)
    },
  }
}

export type SourcesService = ReturnType<typeof createSourcesService>
