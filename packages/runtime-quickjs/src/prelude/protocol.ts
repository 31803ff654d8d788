/**
 * The contract between the host (host-bridge.ts, sandbox-globals.ts) and the prelude pieces that run inside
 * QuickJS. Both sides import it; each bundled piece inlines what it uses, so the names and the order have
 * one source.
 */
import type { LogEntry } from "@switchboard/core"

// The host functions. The host passes them to the prelude pieces as arguments, in the order of the
// pieces' parameters; they are never put on the global object. The names show in stack traces only.

/**
 * `(resolve: (resultJson: string) => void, path: string, argsJson: string | undefined, reasonOrUnits: string | number) => void`:
 * calls the tool, or answers `invalid_arguments` (naming the reason, a string) when the arguments had no JSON
 * copy. With a copy, the last argument is the length of the path plus the JSON's, read by the prelude (a
 * primitive string's length, which no script can change), so that the host can refuse arguments past the
 * limit without reading or copying them (one argument for both: each argument costs the host a handle).
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

export type InvokeHost = (
  resolve: (resultJson: string) => void,
  path: string,
  argsJson: string | undefined,
  reasonOrUnits: string | number,
) => void
export type LogHost = (level: LogLevel, text: string) => void
export type EmitHost = (blockJson: string | undefined, reason: string) => string | undefined
export type LoadFormat = (stringify: typeof JSON.stringify) => (value: unknown) => string
/** A run's clock with determinism: Date's reads return `replay` first, then the real clock; `max` reads are recorded */
export interface RunClockConfig {
  replay: readonly number[]
  /** reads past this many are the real clock and are not recorded (MAX_CLOCK_READS) */
  max: number
}

/**
 * The globals a script gets besides plain ECMAScript. Each is made by a piece of the prelude (tools.ts,
 * console.ts, emit.ts), compiled on the script's first read of that global. A piece's script evaluates to
 * a function, which the host calls with these arguments; `stringify` and `parse` are the context's own
 * JSON functions, captured before any script ran.
 */
export const sandboxGlobals = ["tools", "console", "emit"] as const
export type SandboxGlobal = (typeof sandboxGlobals)[number]

/** Standard globals a sandbox may replace with a piece of its own, made the same way: `Date` (date.ts). */
export type ReplacedGlobal = "Date"

export type MakeTools = (invokeHost: InvokeHost, stringify: typeof JSON.stringify, parse: typeof JSON.parse) => unknown
export type MakeConsole = (
  logHost: LogHost,
  loadFormat: LoadFormat,
  stringify: typeof JSON.stringify,
) => Record<string, (...args: unknown[]) => void>
export type MakeEmit = (emitHost: EmitHost, stringify: typeof JSON.stringify) => (block: unknown) => void
/**
 * Every argument is the context's own, captured before any script ran (`bind` is Function.prototype's). The
 * result: the sandbox's Date; `configure(clockJson)`, which gives a run with determinism its clock (a
 * RunClockConfig as JSON); `takeReads()`, which gives the reads since its last call as a JSON array, or undefined
 * when there were none.
 */
export type MakeDate = (
  parse: typeof JSON.parse,
  stringify: typeof JSON.stringify,
  OriginalDate: DateConstructor,
  construct: typeof Reflect.construct,
  apply: typeof Reflect.apply,
  bind: typeof Function.prototype.bind,
  defineProperty: typeof Object.defineProperty,
) => [date: DateConstructor, configure: (clockJson: string) => void, takeReads: () => string | undefined]

export type LogLevel = LogEntry["level"]

export const logLevels: readonly LogLevel[] = ["log", "info", "warn", "error", "debug"]
