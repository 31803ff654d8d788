/**
 * What the admin operations (add, sync, update, remove) share: a store call as an Effect whose rejection is our
 * defect, the source a namespace names, a config its plugin checked, and the source as the API shows it.
 */
import { Effect } from "effect"
import { Forbidden, InvalidInput, NotFound, internalError } from "../errors.js"
import type { Internal, Logger } from "../errors.js"
import type { ConfigViewer, MetricsSink, SourcePlugin } from "../seams.js"
import type { SourceAuthRow } from "../catalog/oauth-rows.js"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { sourceView } from "./source-view.js"
import type { SourceView } from "./source-view.js"
import type { ProgressOf } from "./sync-progress.js"
import type { SourceLogins } from "../oauth/oauth-service.js"

/** What every part of the sources service is handed. */
export interface SourcesContext {
  store: CatalogStore
  logger: Logger
  now: () => number
  metrics: MetricsSink
  pluginFor: (kind: string) => SourcePlugin | undefined
  progressOf: ProgressOf
  /** OAuth, on a host that logs sources in: a source's first client-credentials token, a login a PATCH moved */
  logins?: SourceLogins
}

export type AdminSteps = ReturnType<typeof adminSteps>

export const adminSteps = ({ store, logger, pluginFor }: SourcesContext) => {
  /** A store call of an admin operation: a rejection is our defect, logged with a correlation id (HTTP 500). */
  const attempt = <A>(where: string, run: () => Promise<A>): Effect.Effect<A, Internal> =>
    Effect.tryPromise({ try: run, catch: (cause) => internalError(logger, where, cause) })

  const found = Effect.fnUntraced(function* (namespace: string) {
    const row = yield* attempt("read source", () => store.getSource(namespace))
    return row ?? (yield* new NotFound({ message: `no source with namespace "${namespace}"` }))
  })

  /** A config as the kind's plugin checked it; `Forbidden` when this server will not run what it names. */
  const checkedConfig = (plugin: SourcePlugin, config: unknown): Effect.Effect<unknown, Forbidden | InvalidInput> => {
    const checked = plugin.validateConfig(config)
    if (checked.ok) return Effect.succeed(checked.config)
    return Effect.fail(
      checked.reason === "forbidden"
        ? new Forbidden({ message: checked.message })
        : new InvalidInput({ message: checked.message }),
    )
  }

  /** every view but the listing answers an admin (the routes that add, sync or change a source need admin) */
  const view = async (
    row: SourceRow,
    viewer: ConfigViewer = "admin",
    grant?: SourceAuthRow | null,
  ): Promise<SourceView> =>
    sourceView(row, {
      toolCount: await store.countTools(row.id),
      plugin: pluginFor(row.kind),
      viewer,
      grant: grant === undefined ? await store.getSourceAuth(row.id) : grant,
    })

  const viewOf = (row: SourceRow) => attempt("read source", () => view(row))

  return { attempt, found, checkedConfig, view, viewOf }
}
