import type { LogEntry, RunLimits } from "@switchboard/core"
import { utf8Length } from "./utf8-length.js"

export interface LogBuffer {
  push(level: LogEntry["level"], message: string): void
  /** whether a line of at least `units` UTF-16 code units could still be kept (a UTF-8 size is never smaller) */
  fits(units: number): boolean
  /** counts a line that was never copied out of the sandbox as dropped (or `lines` of `bytes` in all) */
  drop(bytes: number, lines?: number): void
  /** the kept lines, plus one final marker entry when any were dropped */
  entries(): LogEntry[]
}

/**
 * Told of every line a run's log keeps or drops, as it happens: a host that may have to stop a run by force
 * (the worker pool kills its thread) keeps a copy where it can still read it (node/log-mirror.ts).
 */
export interface LogSink {
  kept(level: LogEntry["level"], message: string, bytes: number): void
  dropped(bytes: number): void
}

/**
 * Keeps lines in order until either cap is reached, then drops every later line (so the kept log has no
 * gaps) and counts what it dropped.
 */
export const createLogBuffer = (limits: Pick<RunLimits, "maxLogLines" | "maxLogBytes">, sink?: LogSink): LogBuffer => {
  const kept: LogEntry[] = []
  let keptBytes = 0
  let droppedLines = 0
  let droppedBytes = 0
  const drop = (bytes: number, lines = 1) => {
    droppedLines += lines
    droppedBytes += bytes
    sink?.dropped(bytes)
  }
  return {
    push(level, message) {
      const bytes = utf8Length(message)
      if (droppedLines === 0 && kept.length < limits.maxLogLines && keptBytes + bytes <= limits.maxLogBytes) {
        kept.push({ level, message })
        keptBytes += bytes
        sink?.kept(level, message, bytes)
        return
      }
      drop(bytes)
    },
    fits(units) {
      return droppedLines === 0 && kept.length < limits.maxLogLines && keptBytes + units <= limits.maxLogBytes
    },
    drop,
    entries() {
      if (droppedLines === 0) return kept.slice()
      const marker: LogEntry = {
        level: "warn",
        message:
          `[switchboard] ${droppedLines} more log line${droppedLines === 1 ? "" : "s"} (${droppedBytes} bytes) dropped: ` +
          `the log limit is ${limits.maxLogLines} lines or ${limits.maxLogBytes} bytes`,
      }
      return [...kept, marker]
    },
  }
}
