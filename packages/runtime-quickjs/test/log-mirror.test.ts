import { describe, expect, test } from "vitest"
import { createLogBuffer } from "../src/log-buffer.js"
import { LogMirrorWriter, logMirrorBytes, readLogMirror } from "../src/node/log-mirror.js"

/** A run's log written through a buffer whose sink is the mirror, as the pool worker does it. */
const logThrough = (
  shared: SharedArrayBuffer,
  runId: number,
  limits: { maxLogLines: number; maxLogBytes: number },
  lines: [string, string][],
) => {
  const writer = new LogMirrorWriter(shared)
  writer.begin(runId)
  const logs = createLogBuffer(limits, writer)
  for (const [level, message] of lines) logs.push(level as "log", message)
  return logs.entries()
}

describe("log mirror", () => {
  test("reads back what a run logged, levels and UTF-8 text included, as the run's own log reads", () => {
    const limits = { maxLogLines: 10, maxLogBytes: 1_000 }
    const shared = new SharedArrayBuffer(logMirrorBytes(limits))
    const lines: [string, string][] = [
      ["log", "plain"],
      ["warn", "délai 🚀"],
      ["error", ""],
      ["debug", "a\nb"],
      ["info", "i"],
    ]
    const own = logThrough(shared, 7, limits, lines)
    expect(readLogMirror(shared, 7, limits)).toEqual(own)
    expect(own.map((entry) => entry.message)).toEqual(["plain", "délai 🚀", "", "a\nb", "i"])
  })

  test("past the limits it gives the same marker as the run's own log", () => {
    const limits = { maxLogLines: 2, maxLogBytes: 1_000 }
    const shared = new SharedArrayBuffer(logMirrorBytes(limits))
    const own = logThrough(shared, 1, limits, [
      ["log", "1"],
      ["log", "2"],
      ["log", "three"],
      ["log", "four"],
    ])
    expect(own.at(-1)?.message).toBe(
      "[switchboard] 2 more log lines (9 bytes) dropped: the log limit is 2 lines or 1000 bytes",
    )
    expect(readLogMirror(shared, 1, limits)).toEqual(own)
  })

  test("holds only the current run: another run's id reads as nothing, and a new run starts empty", () => {
    const limits = { maxLogLines: 10, maxLogBytes: 1_000 }
    const shared = new SharedArrayBuffer(logMirrorBytes(limits))
    logThrough(shared, 1, limits, [["log", "first run"]])
    expect(readLogMirror(shared, 2, limits)).toBeUndefined()
    logThrough(shared, 2, limits, [["log", "second run"]])
    expect(readLogMirror(shared, 1, limits)).toBeUndefined()
    expect(readLogMirror(shared, 2, limits)).toEqual([{ level: "log", message: "second run" }])
  })

  test("a mirror smaller than the run's limits keeps a prefix without gaps and counts the rest as dropped", () => {
    const limits = { maxLogLines: 100, maxLogBytes: 10_000 }
    const shared = new SharedArrayBuffer(logMirrorBytes({ maxLogLines: 2, maxLogBytes: 12 }))
    logThrough(shared, 3, limits, [
      ["log", "12345"],
      ["log", "x".repeat(20)],
      ["log", "small"],
    ])
    expect(readLogMirror(shared, 3, limits)).toEqual([
      { level: "log", message: "12345" },
      {
        level: "warn",
        message: "[switchboard] 2 more log lines (25 bytes) dropped: the log limit is 100 lines or 10000 bytes",
      },
    ])
  })
})
