/**
 * Approvals on the Node host: a fiber scoped to the host that takes on every resume that is due (approvals past
 * their deadline, which count as declined, and resumes another server began and never finished) every `everyMs`
 * (default 10 s), the first one period after the start. Any number of servers sharing a catalog may run it: each claim is compare-and-set
 * in the store, so one resume runs once. A sweep that fails is logged and the next runs as usual.
 */
import { Effect, Layer, Schedule } from "effect"
import { Services, driverMessage } from "@switchboard/core"

export const DEFAULT_SWEEP_EVERY_MS = 10_000

export const approvalSweepLayer = (
  everyMs = DEFAULT_SWEEP_EVERY_MS,
): Layer.Layer<never, never, Services.Approvals | Services.Logger> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const approvals = yield* Services.Approvals
      const logger = yield* Services.Logger
      const sweep = Effect.tryPromise(() => approvals.sweep()).pipe(
        Effect.tap((taken) =>
          Effect.sync(() => {
            if (taken > 0) logger.info("approvals: resuming executions whose decision is due", { resumes: taken })
          }),
        ),
        Effect.catch((error) =>
          Effect.sync(() =>
            logger.error("approvals: a sweep failed; the next runs as usual", { error: driverMessage(error.cause) }),
          ),
        ),
      )
      // the first one period after the start: serve applies the config file's rules and sources once the host is
      // built, and a resume taken on before that would run under the rules of the last boot
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(everyMs)).pipe(Effect.delay(everyMs)))
    }),
  )
