/**
 * `POST /v1/sources`: checks the config, discovers before storing, and stores the source with its tools. A source
 * that cannot be reached is not kept, so a failed add leaves nothing behind.
 */
import { Effect } from "effect"
import { Conflict, NotFound, internalError } from "../errors.js"
import type { SourceRow } from "../catalog/rows.js"
import { parseRequest } from "../request-schemas.js"
import type { sourceFields } from "../request-schemas.js"
import type { AdminSteps, SourcesContext } from "./source-admin.js"
import { discoverAlone, discoveryError, keepFirstGrant } from "./source-discovery.js"
import { handleOf } from "./source-view.js"
import type { SyncOptions } from "./sync-progress.js"

export interface AddSourceOptions extends SourcesContext {
  steps: AdminSteps
  /** the body's fields, for the kinds this server takes */
  sourceRequest: ReturnType<typeof sourceFields>
}

export const makeAddSource = ({
  store,
  logger,
  now,
  pluginFor,
  progressOf,
  logins,
  steps,
  sourceRequest,
}: AddSourceOptions) => {
  const { attempt, checkedConfig, viewOf } = steps

  /** `onProgress` hears each page of the listing. */
  return Effect.fnUntraced(function* (body: unknown, options: SyncOptions = {}) {
    const fields = parseRequest(sourceRequest, body)
    if (!fields.ok) return yield* fields.error
    const { namespace, kind, ...config } = fields.value
    // sourceFields took only a kind some plugin handles
    const plugin = pluginFor(kind)!
    const checked = yield* checkedConfig(plugin, config)
    const taken = new Conflict({ message: `a source with namespace "${namespace}" already exists` })
    if (yield* attempt("read source", () => store.getSource(namespace))) return yield* taken

    const at = now()
    const row: SourceRow = {
      id: crypto.randomUUID(),
      namespace,
      kind,
      config: checked,
      status: "ready",
      lastSyncedAt: null,
      syncError: null,
      createdAt: at,
      updatedAt: at,
    }
    const release = Effect.promise(() => plugin.release(row.id))
    const source = handleOf(row)
    const discovered = yield* discoverAlone({ plugin, source, onProgress: options.onProgress, progressOf, logger })
    // a source that needs a login is kept, waiting for it: its tools are synced once the login is made
    if (!discovered.ok && !discovered.authRequired) {
      yield* release
      return yield* discoveryError(discovered, `could not add "${namespace}"`)
    }
    const kept: SourceRow = discovered.ok ? row : { ...row, status: "needs_login", syncError: discovered.message }
    yield* Effect.tryPromise({ try: () => store.insertSource(kept), catch: (cause) => cause }).pipe(
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
      try: async () => {
        if (discovered.ok) await store.applySync({ sourceId: row.id, ...discovered.discovery, syncedAt: now() })
      },
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
    // a client-credentials source got its first token while it was discovered, before its row was there to hold it
    if (logins) yield* keepFirstGrant(logins, logger, row.id, row.id)
    const stored = yield* attempt("read source", () => store.getSource(namespace))
    if (!stored) return yield* new NotFound({ message: `source "${namespace}" was removed while it was being added` })
    return yield* viewOf(stored)
  }, Effect.uninterruptible)
}
