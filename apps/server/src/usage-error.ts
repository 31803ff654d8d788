/**
 * A command stopped by its user's mistake (a flag, an argument, a --db): printed as `switchboard: <message>`, exit 2,
 * by the CLI's entry, the one place that ends the process. `withUsage`: the command's usage follows the message.
 * Thrown in a command's bundle and caught in the entry's, so it is told by its tag, never by `instanceof`.
 */
export class UsageError extends Error {
  readonly _tag = "UsageError"
  constructor(
    message: string,
    readonly withUsage = false,
  ) {
    super(message)
  }
}

export const isUsageError = (error: unknown): error is UsageError =>
  (error as { _tag?: unknown } | null)?._tag === "UsageError"
