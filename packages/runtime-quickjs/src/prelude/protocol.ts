/**
 * The contract between the host bridge and the prelude that runs inside QuickJS. Both sides import it;
 * the prelude bundle inlines what it uses, so the names and the order have one source.
 */
import type { LogEntry } from "@switchboard/core"

// The host functions. The host passes them to the prelude as arguments, in the order of `Prelude`'s
// parameters; they are never put on the global object. The names show in stack traces only.

/**
 * `(resolve: (resultJson: string) => void, path: string, argsJson: string | undefined, reason: string) => void`:
 * calls the tool, or answers `invalid_arguments` (naming `reason`) when the arguments had no JSON copy
 */
export const invokeFunctionName = "__switchboard_invoke"
/** `(level: LogLevel, text: string) => void` */
export const logFunctionName = "__switchboard_log"
/**
 * `(blockJson: string | undefined, reason: string) => problem: string | undefined`: records one content block
 * (its JSON copy); answers a message when it is not one, which the prelude throws as a TypeError
 */
export const emitFunctionName = "__switchboard_emit"
/** `(stringify) => format`: compiles format.ts in the guest and returns the formatter it makes */
export const loadFormatFunctionName = "__switchboard_load_format"

export type InvokeHost = (resolve: (resultJson: string) => void, path: string, argsJson: string | undefined, reason: string) => void
export type LogHost = (level: LogLevel, text: string) => void
export type EmitHost = (blockJson: string | undefined, reason: string) => string | undefined
export type LoadFormat = (stringify: typeof JSON.stringify) => (value: unknown) => string

/** The value of the prelude script: the host calls it once, before the user's script. */
export type Prelude = (invokeHost: InvokeHost, logHost: LogHost, emitHost: EmitHost, loadFormat: LoadFormat) => void

export type LogLevel = LogEntry["level"]

export const logLevels: readonly LogLevel[] = ["log", "info", "warn", "error", "debug"]
