/**
 * The Node host's logger: pino, one JSON line per event on stderr (stdout stays free for the CLI and stdio MCP).
 * core's `Logger` seam and the request log (`request` lines, from compose.ts) write through the same instance, so
 * every line has one shape: `{"level":"info","time":"<ISO>",…fields,"message":"…"}`.
 */
import { pino } from "pino"
import type { DestinationStream, Logger as Pino } from "pino"
import type { Logger } from "@switchboard/core"
import { batchedDestination } from "./log-destination.js"
import { prettyLines } from "./pretty-log.js"

export { LOG_FORMATS, LOG_LEVELS } from "./log-levels.js"
export type { LogFormat, LogLevel } from "./log-levels.js"
import type { LogFormat, LogLevel } from "./log-levels.js"

export interface LogOptions {
  /** the least level written (default `info`: every request; `warn` leaves requests out) */
  level?: LogLevel
  /** `json` (default): one JSON object a line; `pretty`: one readable line an event, for people (pretty-log.ts) */
  format?: LogFormat
  /** where lines go: a stream, or a file descriptor written in batches (default: 2, stderr; log-destination.ts) */
  destination?: DestinationStream | number
}

const createPino = ({ level = "info", format = "json", destination }: LogOptions = {}): Pino => {
  const out = typeof destination === "object" ? destination : batchedDestination(destination ?? 2)
  return pino(
    {
      level,
      // no pid or hostname on every line: one process writes this stream, and its supervisor knows which
      base: undefined,
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    format === "pretty" ? prettyLines(out) : out,
  )
}

/** core's Logger over a pino instance. */
const loggerOf = (log: Pino): Logger => ({
  error: (message, details) => (details ? log.error(details, message) : log.error(message)),
  warn: (message, details) => (details ? log.warn(details, message) : log.warn(message)),
  info: (message, details) => (details ? log.info(details, message) : log.info(message)),
})

export const createStderrLogger = (options: LogOptions = {}): Logger => loggerOf(createPino(options))
