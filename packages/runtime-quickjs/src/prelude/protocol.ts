/**
 * The contract between the host bridge and the prelude that runs inside QuickJS. Both sides import it;
 * the prelude bundle inlines the constants, so the names have one source.
 */
import type { LogEntry } from "@switchboard/core"

// Host functions the host puts on the guest's global object; the prelude captures and deletes them.
// Separate constants, not an object, so the bundle inlines them.

/** `(path: string, argsJson: string) => Promise<resultJson: string>` */
export const invokeFunctionName = "__switchboard_invoke"
/** `(level: LogLevel, text: string) => void` */
export const logFunctionName = "__switchboard_log"

export type LogLevel = LogEntry["level"]

export const logLevels: readonly LogLevel[] = ["log", "info", "warn", "error", "debug"]
