import type { LogEntry, RunLimits } from "@switchboard/core"
import { utf8Length } from "./utf8-length.js"

export interface LogBuffer {
  push(level: LogEntry["level"], message: string): void
  /** whether a line of at least `units` UTF-16 code units could still be kept (a UTF-8 size is never smaller) */
  fits(units: number): boolean
  /** counts a line that was never copied out of the sandbox as dropped */
  drop(bytes: number): void
  /** the kept lines, plus one final marker entry when any were dropped */
  entries(): LogEntry[]
}

/**
 * Keeps lines in order until either cap is reached, then drops every later line (so the kept log has no
 * gaps) and counts what it dropped.
 */
export const createLogBuffer = (limits: Pick<RunLimits, "maxLogLines" | "maxLogBytes">): LogBuffer => {
  const kept: LogEntry[] = []
  let keptBytes = 0
  let droppedLines = 0
  let droppedBytes = 0
  const drop = (bytes: number) => {
    droppedLines++
    droppedBytes += bytes
  }
  return {
    push(level, message) {
      const bytes = utf8Length(message)
      if (droppedLines === 0 && kept.length < limits.maxLogLines && keptBytes + bytes <= limits.maxLogBytes) {
        kept.push({ level, message })
        keptBytes += bytes
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
