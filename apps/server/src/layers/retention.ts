/**
 * Retention on the Node host: a fiber scoped to the host that prunes execution records past the policy (`--retain`,
 * `--retain-executions`) a minute after start, and then `everyMs` after each prune ends (the first waits, so that a
 * large backlog is not pruned while the server warms up and answers its first requests). It runs beside the requests and never on one's path:
 * each batch of a prune is one short store operation, with a pause between (core's catalog/prune.ts). A round
 * that fails is logged and the next runs as usual. Closing the host interrupts it: the batch under way commits, no
 * other starts, and the database closes only after that.
 */
import { Effect, Layer, Schedule } from "effect"
import { Services, driverMessage } from "@switchboard/core"
import type * as Catalog from "@switchboard/core/catalog"
import type { CatalogStore, Logger } from "@switchboard/core"

export interface RetentionOptions extends Catalog.RetentionPolicy {
  /** the time between the end of one prune and the start of the next (default 10 minutes) */
  everyMs?: number
}

const DEFAULT_PRUNE_EVERY_MS = 10 * 60_000
const FIRST_PRUNE_AFTER_MS = 60_000

/** One prune to its end; interrupted, it stops between batches and the interruption waits for the batch. */
const prune = (store: CatalogStore, policy: Catalog.RetentionPolicy, now: () => number) =>
  Effect.callback<Catalog.PruneReport, unknown>((resume, signal) => {
    // the time of this round: the effect is made once and repeated
    const pruning = store.pruneExecutions(policy, { now: now(), signal })
    pruning.then(
      (report) => resume(Effect.succeed(report)),
      (cause: unknown) => resume(Effect.fail(cause)),
    )
    return Effect.promise(() => pruning.catch(() => undefined))
  })

const round = (store: CatalogStore, logger: Logger, policy: Catalog.RetentionPolicy, now: () => number) =>
  prune(store, policy, now).pipe(
    Effect.tap((report) =>
      Effect.sync(() => {
        if (report.deleted > 0) logger.info("retention: pruned executions", { ...report })
      }),
    ),
    Effect.catch((cause) =>
      Effect.sync(() =>
        logger.error("retention: a prune failed; the next runs as usual", { error: driverMessage(cause) }),
      ),
    ),
  )

/** Nothing at all without a bound: every execution is kept (the default). */
export const retentionLayer = (
  options: RetentionOptions | undefined,
): Layer.Layer<never, never, Services.CatalogStore | Services.Logger> => {
  if (options?.maxAgeMs === undefined && options?.maxExecutions === undefined) return Layer.empty
  const policy: Catalog.RetentionPolicy = { maxAgeMs: options.maxAgeMs, maxExecutions: options.maxExecutions }
  return Layer.effectDiscard(
    Effect.gen(function* () {
      const store = yield* Services.CatalogStore
      const logger = yield* Services.Logger
      const now = yield* Services.nowFrom
      const every = options.everyMs ?? DEFAULT_PRUNE_EVERY_MS
      yield* Effect.forkScoped(
        Effect.sleep(Math.min(every, FIRST_PRUNE_AFTER_MS)).pipe(
          Effect.andThen(Effect.repeat(round(store, logger, policy, now), Schedule.spaced(every))),
        ),
      )
    }),
  )
}
