/**
 * `PATCH /v1/sources/:namespace`: replaces the fields the plugin lets a patch replace (MCP: the transport's
 * `headers` or `url`, `env` or `args`, and `auth`, each whole), checks the result as `add` does, and discovers with it before
 * anything is stored: a refusal by this server (a stdio source it may not start, an address it may not reach)
 * changes nothing, so no server sharing the catalog runs what this one refused. Otherwise the new config is stored,
 * pooled connections are dropped and the discovered tools applied; the answer names the stored secrets the plugin
 * dropped (an http source moved to another origin). A failed discovery keeps the new config and reports the failure
 * in the answer's `syncError`, as a failed lazy re-sync does: the old secrets may be the very thing that stopped
 * working. A PATCH that moves the source's OAuth login (another client, grant or authorization server: the plugin
 * says) drops its stored login once the new config is stored; the trial meanwhile logs in as the new config would.
 */
import { Effect } from "effect"
import { InvalidInput, NotFound, SecretsUnreadable } from "../errors.js"
import { UNREADABLE_SECRET } from "../secrets/sealed-store.js"
import type { AdminSteps, SourcesContext } from "./source-admin.js"
import { discoverAlone, discoveryError, keepFirstGrant } from "./source-discovery.js"
import type { Staleness } from "./source-staleness.js"
import type { SourceSync } from "./source-sync.js"
import { handleOf } from "./source-view.js"
import type { SourceView } from "./source-view.js"
import type { SyncOptions } from "./sync-progress.js"

/** What `dropped` names for a source's OAuth login (its tokens), dropped by a PATCH that moved it. */
export const LOGIN_DROPPED = "oauth.tokens"

/**
 * What a PATCH made: the source as the API shows it, and the stored secrets it dropped because it sent the source
 * elsewhere without them (`transport.headers.authorization`; the plugin's `mergeConfig` decides), and its OAuth
 * login (`oauth.tokens`) when it changed the source's client, grant or authorization server.
 */
export interface SourceUpdate {
  source: SourceView
  dropped: string[]
}

export interface UpdateSourceOptions extends SourcesContext {
  steps: AdminSteps
  staleness: Staleness
  syncs: Pick<SourceSync, "running">
}

/** The paths of a merged config whose secret could not be read and is not replaced by the patch. */
const unreadable = (paths: readonly string[][], config: unknown) =>
  paths.filter(
    (path) =>
      path.reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], config) === UNREADABLE_SECRET,
  )

export const makeUpdateSource = ({
  store,
  logger,
  now,
  metrics,
  pluginFor,
  progressOf,
  logins,
  steps,
  staleness,
  syncs,
}: UpdateSourceOptions) => {
  const { attempt, found, checkedConfig, viewOf } = steps

  return Effect.fnUntraced(function* (namespace: string, body: unknown, options: SyncOptions = {}) {
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
    const kept = unreadable(plugin.secretFields?.(merged.config) ?? [], merged.config)
    if (kept.length > 0)
      return yield* new SecretsUnreadable({
        message:
          `${kept.map((p) => p.join(".")).join(", ")} of source "${namespace}" cannot be decrypted with this server's key; ` +
          "send a new value for it in this PATCH too",
      })
    const config = yield* checkedConfig(plugin, merged.config)

    // the trial runs under an id of its own: the source's live connections, made with the stored config, stay; it
    // logs in as the source does, unless the PATCH moves its login (then it has none, or a first machine token)
    const trial = {
      ...handleOf({ ...row, id: `${row.id}/patch/${crypto.randomUUID()}`, config }),
      ...(merged.loginMoved ? {} : { loginId: row.id }),
    }
    const discovered = yield* discoverAlone({
      plugin,
      source: trial,
      onProgress: options.onProgress,
      progressOf,
      logger,
    })
    yield* Effect.promise(() => plugin.release(trial.id))
    if (!discovered.ok && discovered.refused)
      return yield* discoveryError(discovered, `could not update "${namespace}"`)

    // a sync already running uses the old config: let it end, so its tools do not land after the new ones
    yield* Effect.promise(async () => syncs.running(row.id))
    yield* attempt("update source", () => store.updateSourceConfig({ source: row, config, at: now() }))
    const dropped = [...(merged.dropped ?? [])]
    // tokens issued to another client, or by or for another server, are not sent on
    if (merged.loginMoved && logins) {
      if (yield* attempt("drop login", () => logins.drop(row.id))) dropped.push(LOGIN_DROPPED)
      yield* keepFirstGrant(logins, logger, trial.id, row.id)
    }
    // connections made with the old secrets go; the next one is made with the new
    yield* Effect.promise(() => plugin.release(row.id))
    staleness.replaced(row.id)
    const at = now()
    yield* attempt("sync source", () =>
      discovered.ok
        ? store.applySync({ sourceId: row.id, ...discovered.discovery, syncedAt: at })
        : discovered.authRequired
          ? store.recordNeedsLogin(row.id, discovered.message, at)
          : store.recordSyncError(row.id, discovered.message, at),
    )
    metrics.syncEnded(namespace, discovered.ok)
    const current = yield* attempt("read source", () => store.getSource(namespace))
    if (!current || current.id !== row.id)
      return yield* new NotFound({ message: `source "${namespace}" was removed while it was being updated` })
    return { source: yield* viewOf(current), dropped } satisfies SourceUpdate
  }, Effect.uninterruptible)
}
