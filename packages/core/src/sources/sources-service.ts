/**
 * Adding, listing, syncing and removing sources. The admin operations are Effects that fail with core's typed
 * errors (errors.ts) and run to their end once started: a client hanging up does not leave half a source
 * behind. A sync is shared: concurrent triggers for one source wait on the same discovery, so a burst of calls
 * to a stale source costs one round of `tools/list`. `ensureFresh`, on the per-call path, stays plain.
 */
import { Effect } from "effect"
import {
  Conflict,
  Forbidden,
  InvalidInput,
  NotFound,
  SecretsUnreadable,
  SourceRefused,
  UpstreamFailed,
  internalError,
  isServiceError,
} from "../errors.js"
import type { Internal, Logger, ServiceError } from "../errors.js"
import { noopMetrics } from "../seams.js"
import type { ConfigViewer, DiscoveryFailure, MetricsSink, SourcePlugin } from "../seams.js"
import { hasScope } from "../auth/scopes.js"
import type { Caller } from "../auth/scopes.js"
import { SYNC_PROGRESS_LOG_MS, syncProgress } from "./sync-progress.js"
import type { ProgressListener } from "./sync-progress.js"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { UNREADABLE_SECRET } from "../secrets/sealed-store.js"
import { parseRequest, sourceFields } from "../request-schemas.js"
import { DEFAULT_SYNC_TTL_MS, handleOf, sourceView } from "./source-view.js"
import type { SourceView } from "./source-view.js"

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
}

/**
 * What a PATCH made: the source as the API shows it, and the stored secrets it dropped because it sent the source
 * elsewhere without them (`transport.headers.authorization`; the plugin's `mergeConfig` decides).
 */
export interface SourceUpdate {
  source: SourceView
  dropped: string[]
}

/** What a caller of `add` or `sync` may follow: each page of the source's listing as it is read (a CLI's progress line). */
export interface SyncOptions {
  onProgress?: ProgressListener
}

export { DEFAULT_SYNC_TTL_MS, handleOf } from "./source-view.js"
export type { SourceView } from "./source-view.js"

/**
 * What a failed discovery is to the caller: a refusal by this server's configuration (`SourceRefused`), or the
 * source failing, retryable unless it was reached and misbehaved (`upstream_error`).
 */
const discoveryError = (failure: DiscoveryFailure, what: string): SourceRefused | UpstreamFailed =>
  failure.refused
    ? new SourceRefused({ message: failure.message, code: failure.refused })
    : new UpstreamFailed({
        message: `${what}: ${failure.message}`,
        retryable: !failure.upstreamError,
        ...(failure.upstreamError ? { upstreamError: true } : {}),
      })

export const createSourcesService = ({
  store,
  plugins,
  logger,
  syncTtlMs = DEFAULT_SYNC_TTL_MS,
  now = Date.now,
  stale = new Set<string>(),
  metrics = noopMetrics,
  progressLogMs = SYNC_PROGRESS_LOG_MS,
}: SourcesServiceOptions) => {
  const pluginFor = (kind: string) => plugins.find((p) => p.kind === kind)
  const sourceRequest = sourceFields(plugins.map((p) => p.kind))
  const inflight = new Map<string, Promise<SourceRow | ServiceError>>()
  /** who follows the sync of each source: a caller that joins a running sync hears its pages from then on */
  const followers = new Map<string, Set<ProgressListener>>()
  const progressOf = (namespace: string, listeners: () => Iterable<ProgressListener>) =>
    syncProgress({ logger, now, everyMs: progressLogMs }, namespace, listeners)
  const follow = (sourceId: string, listener: ProgressListener | undefined) => {
    if (!listener) return () => {}
    const set = followers.get(sourceId) ?? new Set()
    followers.set(sourceId, set.add(listener))
    return () => {
      set.delete(listener)
      if (set.size === 0 && followers.get(sourceId) === set) followers.delete(sourceId)
    }
  }

  /** after a failed lazy sync, calls use the old catalog for a while instead of each waiting on a dead server */
  const failedAt = new Map<string, number>()
  const RETRY_FAILED_SYNC_MS = Math.min(syncTtlMs, 30_000)

  /** a source in error is synced again before its next use: the sync that succeeds makes it ready */
  const isStale = (row: SourceRow) => {
    const failed = failedAt.get(row.id)
    if (failed !== undefined && now() - failed < RETRY_FAILED_SYNC_MS) return false
    return (
      stale.has(row.id) || row.status === "error" || row.lastSyncedAt === null || now() - row.lastSyncedAt >= syncTtlMs
    )
  }

  /** every view but the listing answers an admin (the routes that add, sync or change a source need admin) */
  const view = async (row: SourceRow, viewer: ConfigViewer = "admin"): Promise<SourceView> =>
    sourceView(row, await store.countTools(row.id), pluginFor(row.kind), viewer)

  /** A sync's failure is a value, not a rejection: lazy re-syncs on the per-call path share it without an Effect. */
  const runSync = async (row: SourceRow): Promise<SourceRow | ServiceError> => {
    stale.delete(row.id)
    // its secrets are placeholders: a plugin must never connect with them
    if (row.secretsError) return new SecretsUnreadable({ message: row.secretsError })
    const plugin = pluginFor(row.kind)
    if (!plugin) return new InvalidInput({ message: `no plugin handles sources of kind "${row.kind}"` })
    // read at each page: a caller that joins later (even a sync started with no follower) hears the pages after
    const progress = progressOf(row.namespace, () => followers.get(row.id) ?? [])
    const discovered = await plugin.discover(handleOf(row), { onProgress: progress.onProgress })
    const at = now()
    if (!discovered.ok) {
      // a refusal is this server's configuration, not the source's state: another server sharing the catalog may run it
      if (!discovered.refused) await store.recordSyncError(row.id, discovered.message, at)
      return discoveryError(discovered, `sync of "${row.namespace}" failed`)
    }
    progress.end()
    await store.applySync(
      row.id,
      discovered.discovery.tools,
      discovered.discovery.encoding,
      at,
      discovered.discovery.definitions,
    )
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
    if (row.secretsError || !isStale(row)) return row
    const synced = await sync(row)
    if (isServiceError(synced)) {
      failedAt.set(row.id, now())
      logger.warn("lazy re-sync failed; serving the previous catalog", {
        namespace: row.namespace,
        error: synced.message,
      })
      return row
    }
    failedAt.delete(row.id)
    return synced
  }

  /** A store call of an admin operation: a rejection is our defect, logged with a correlation id (HTTP 500). */
  const attempt = <A>(where: string, run: () => Promise<A>): Effect.Effect<A, Internal> =>
    Effect.tryPromise({ try: run, catch: (cause) => internalError(logger, where, cause) })

  const found = Effect.fnUntraced(function* (namespace: string) {
    const row = yield* attempt("read source", () => store.getSource(namespace))
    return row ?? (yield* new NotFound({ message: `no source with namespace "${namespace}"` }))
  })

  /** A sync's failure value into the error channel. */
  const synced = (row: SourceRow, onProgress?: ProgressListener) =>
    Effect.flatMap(
      Effect.promise(() => sync(row, onProgress)),
      (result): Effect.Effect<SourceRow, ServiceError> =>
        isServiceError(result) ? Effect.fail(result) : Effect.succeed(result),
    )

  const viewOf = (row: SourceRow) => attempt("read source", () => view(row))

  return {
    /** The kinds of source this server takes, each with the schemas of its bodies (for the OpenAPI document). */
    kinds: plugins.map(({ kind, configSchema, patchSchema }) => ({ kind, configSchema, patchSchema })),

    ensureFresh,

    /** Re-syncs every stale source (or the one named), sharing syncs already running. */
    async ensureFreshNamespace(namespace?: string): Promise<void> {
      const rows = namespace ? [await store.getSource(namespace)] : await store.listSources()
      await Promise.all(rows.filter((r): r is SourceRow => r !== null).map(ensureFresh))
    },

    markStale(sourceId: string) {
      stale.add(sourceId)
    },

    /**
     * A call could not start or reach its source (the plugin's `connectFailed`): its status says so, with the
     * reason, as a failed sync's does, until a sync succeeds; the next use syncs it first.
     */
    async recordConnectFailure(row: SourceRow, message: string): Promise<void> {
      stale.add(row.id)
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

    /**
     * `POST /v1/sources`: checks the config, discovers before storing, and stores the source with its tools.
     * `onProgress` hears each page of the listing.
     */
    add: Effect.fnUntraced(function* (body: unknown, options: SyncOptions = {}) {
      const fields = parseRequest(sourceRequest, body)
      if (!fields.ok) return yield* fields.error
      const { namespace, kind, ...config } = fields.value
      // sourceFields took only a kind some plugin handles
      const plugin = pluginFor(kind)!
      const checked = plugin.validateConfig(config)
      if (!checked.ok)
        return yield* checked.reason === "forbidden"
          ? new Forbidden({ message: checked.message })
          : new InvalidInput({ message: checked.message })
      const taken = new Conflict({ message: `a source with namespace "${namespace}" already exists` })
      if (yield* attempt("read source", () => store.getSource(namespace))) return yield* taken

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
      const release = Effect.promise(() => plugin.release(row.id))
      // Discover before storing: a source that cannot be reached is not kept, so a failed add leaves nothing behind.
      const listeners = options.onProgress ? [options.onProgress] : []
      const progress = progressOf(namespace, () => listeners)
      const discovered = yield* Effect.promise(() =>
        plugin.discover(handleOf(row), { onProgress: progress.onProgress }).catch(
          (cause): DiscoveryFailure => ({
            ok: false,
            message: internalError(logger, "source discovery", cause).message,
          }),
        ),
      )
      if (!discovered.ok) {
        yield* release
        return yield* discoveryError(discovered, `could not add "${namespace}"`)
      }
      progress.end()
      yield* Effect.tryPromise({ try: () => store.insertSource(row), catch: (cause) => cause }).pipe(
        Effect.catch((cause) =>
          Effect.andThen(release, () =>
            // two adds of one namespace racing: the unique index decides
            Effect.flatMap(
              attempt("read source", () => store.getSource(namespace)),
              (raced) => Effect.fail(raced ? taken : internalError(logger, "insert source", cause)),
            ),
          ),
        ),
      )
      yield* Effect.tryPromise({
        try: () =>
          store.applySync(
            row.id,
            discovered.discovery.tools,
            discovered.discovery.encoding,
            now(),
            discovered.discovery.definitions,
          ),
        catch: (cause) => internalError(logger, "first sync of a new source", cause),
      }).pipe(
        // leave nothing behind: a half-added source would block the namespace with no tools
        Effect.tapError(() =>
          Effect.andThen(
            Effect.promise(() => store.deleteSource(row.id).catch(() => undefined)),
            release,
          ),
        ),
      )
      const stored = yield* attempt("read source", () => store.getSource(namespace))
      if (!stored) return yield* new NotFound({ message: `source "${namespace}" was removed while it was being added` })
      return yield* viewOf(stored)
    }, Effect.uninterruptible),

    /** `GET /v1/sources`, which a `read` key may ask: a caller without admin sees less of each config (SourcePlugin.redactConfig). */
    async list(caller: Caller): Promise<SourceView[]> {
      const viewer = hasScope(caller, "admin") ? "admin" : "reader"
      return Promise.all((await store.listSources()).map((row) => view(row, viewer)))
    },

    /**
     * `POST /v1/sources/:namespace/sync`: re-syncs now, sharing a sync already running. `onProgress` hears each page
     * of the listing (of a running sync, the pages after it joined).
     */
    sync: Effect.fnUntraced(function* (namespace: string, options: SyncOptions = {}) {
      return yield* viewOf(yield* synced(yield* found(namespace), options.onProgress))
    }, Effect.uninterruptible),

    /**
     * `PATCH /v1/sources/:namespace`: replaces the fields the plugin lets a patch replace (MCP: the
     * transport's `headers` or `url`, `env` or `args`, each whole), checks the result as `add` does, and
     * discovers with it before anything is stored: a refusal by this server (a stdio source it may not start, an
     * address it may not reach) changes nothing, so no server sharing the catalog runs what this one refused.
     * Otherwise the new config is stored, pooled connections are dropped and the discovered tools applied; the
     * answer names the stored secrets the plugin dropped (an http source moved to another origin). A
     * failed discovery keeps the new config and reports the failure in the answer's `syncError`, as a failed lazy
     * re-sync does: the old secrets may be the very thing that stopped working.
     */
    update: Effect.fnUntraced(function* (namespace: string, body: unknown, options: SyncOptions = {}) {
      const row = yield* found(namespace)
      const plugin = pluginFor(row.kind)
      if (!plugin?.mergeConfig)
        return yield* new InvalidInput({
          message: `sources of kind "${row.kind}" have nothing that can be replaced; delete and add the source instead`,
        })
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return yield* new InvalidInput({ message: "the body must be a JSON object holding the fields to replace" })
      const merged = plugin.mergeConfig(row.config, body)
      if (!merged.ok) return yield* new InvalidInput({ message: merged.message })
      // a secret that cannot be read and is not replaced here would stay unreadable
      const kept = (plugin.secretFields?.(merged.config) ?? []).filter(
        (path) =>
          path.reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], merged.config) ===
          UNREADABLE_SECRET,
      )
      if (kept.length > 0)
        return yield* new SecretsUnreadable({
          message:
            `${kept.map((p) => p.join(".")).join(", ")} of source "${namespace}" cannot be decrypted with this server's key; ` +
            "send a new value for it in this PATCH too",
        })
      const checked = plugin.validateConfig(merged.config)
      if (!checked.ok)
        return yield* checked.reason === "forbidden"
          ? new Forbidden({ message: checked.message })
          : new InvalidInput({ message: checked.message })

      // the trial runs under an id of its own: the source's live connections, made with the stored config, stay
      const trial = handleOf({ ...row, id: `${row.id}/patch/${crypto.randomUUID()}`, config: checked.config })
      const listeners = options.onProgress ? [options.onProgress] : []
      const progress = progressOf(namespace, () => listeners)
      const discovered = yield* Effect.promise(() =>
        plugin.discover(trial, { onProgress: progress.onProgress }).catch(
          (cause): DiscoveryFailure => ({
            ok: false,
            message: internalError(logger, "source discovery", cause).message,
          }),
        ),
      )
      yield* Effect.promise(() => plugin.release(trial.id))
      if (!discovered.ok && discovered.refused)
        return yield* discoveryError(discovered, `could not update "${namespace}"`)
      if (discovered.ok) progress.end()

      // a sync already running uses the old config: let it end, so its tools do not land after the new ones
      yield* Effect.promise(async () => inflight.get(row.id))
      yield* attempt("update source", () => store.updateSourceConfig(row, checked.config, now()))
      // connections made with the old secrets go; the next one is made with the new
      yield* Effect.promise(() => plugin.release(row.id))
      failedAt.delete(row.id)
      stale.delete(row.id)
      const at = now()
      yield* attempt("sync source", () =>
        discovered.ok
          ? store.applySync(
              row.id,
              discovered.discovery.tools,
              discovered.discovery.encoding,
              at,
              discovered.discovery.definitions,
            )
          : store.recordSyncError(row.id, discovered.message, at),
      )
      metrics.syncEnded(namespace, discovered.ok)
      const current = yield* attempt("read source", () => store.getSource(namespace))
      if (!current || current.id !== row.id)
        return yield* new NotFound({ message: `source "${namespace}" was removed while it was being updated` })
      return { source: yield* viewOf(current), dropped: merged.dropped ?? [] } satisfies SourceUpdate
    }, Effect.uninterruptible),

    /** `DELETE /v1/sources/:namespace`: the source and its tools go; its plugin drops its connections. */
    remove: Effect.fnUntraced(function* (namespace: string) {
      const row = yield* found(namespace)
      yield* attempt("delete source", () => store.deleteSource(row.id))
      yield* Effect.promise(async () => pluginFor(row.kind)?.release(row.id))
    }, Effect.uninterruptible),
  }
}

export type SourcesService = ReturnType<typeof createSourcesService>
