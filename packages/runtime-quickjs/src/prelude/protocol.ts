/**
 * The contract between the host bridge and the prelude that runs inside QuickJS. Both sides import it;
 * the prelude bundle inlines the constants, so the names have one source.
 */
import type { LogEntry } from "@switchboard/core"

/** Host functions the host puts on the guest's global object; the prelude captures and deletes them. */
export const HostFunctionNames = {
  /** `(path, argsJson) => Promise<resultJson>` */
  invoke: "__switchboard_invoke",
  /** `(level, text) => void` */
  log: "__switchboard_log",
  /** `(internals: PreludeInternals) => void`, called once so the host can keep its helpers */
  expose: "__switchboard_expose",
} as const

export type LogLevel = LogEntry["level"]

export const logLevels: readonly LogLevel[] = ["log", "info", "warn", "error", "debug"]

/** How a guest value that was thrown or rejected looks to the host. */
export interface ErrorDescription {
  /** true for an Error (or anything with a string `message`); false for a thrown string, object, number... */
  isError: boolean
  name: string
  message: string
  stack?: string
}

/** Helpers the host calls after the script settles. The script can never reach them. */
export interface PreludeInternals {
  /**
   * The value as JSON text, made with the JSON.stringify captured before the script ran.
   * `undefined` for undefined; the text's UTF-16 length, as a number, when it is longer than `maxUnits`
   * (a UTF-8 byte count is never below the UTF-16 length, so the host need not copy a text that is too long).
   * Throws when the value cannot be serialized.
   */
  serializeResult(value: unknown, maxUnits: number): string | number | undefined
  /** JSON text of an {@link ErrorDescription}; never throws. */
  describeError(error: unknown): string
}
