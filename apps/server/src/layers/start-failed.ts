/** A step of the host's start that failed: opening the database, loading the key, starting the worker pool. */
import { Data, Effect } from "effect"

export class StartFailed extends Data.TaggedError("StartFailed")<{ step: string; cause: unknown }> {}

/** The error a promise-facing caller sees: the step's own, so a CLI prints what the database or the key said. */
export const startFailure = (error: unknown): unknown =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "StartFailed"
    ? (error as StartFailed).cause
    : error

export const startStep = <A>(step: string, run: () => Promise<A> | A) =>
  Effect.tryPromise({ try: async () => run(), catch: (cause) => new StartFailed({ step, cause }) })
