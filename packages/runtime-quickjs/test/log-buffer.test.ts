import { describe, expect, test } from "vitest"
import { createLogBuffer } from "../src/log-buffer.js"
import { utf8Length } from "../src/utf8-length.js"

describe("createLogBuffer", () => {
  test("keeps everything under the caps, with no marker", () => {
    const logs = createLogBuffer({ maxLogLines: 3, maxLogBytes: 100 })
    logs.push("log", "a")
    logs.push("error", "b")
    expect(logs.entries()).toEqual([
      { level: "log", message: "a" },
      { level: "error", message: "b" },
    ])
  })

  test("once a line does not fit, it and every later line are dropped and counted in one marker", () => {
    const logs = createLogBuffer({ maxLogLines: 10, maxLogBytes: 5 })
    logs.push("log", "abc")
    logs.push("log", "défg")
    logs.push("log", "h")
    const entries = logs.entries()
    expect(entries).toHaveLength(2)
    expect(entries[0]).toEqual({ level: "log", message: "abc" })
    expect(entries[1]?.level).toBe("warn")
    expect(entries[1]?.message).toBe(
      "[switchboard] 2 more log lines (6 bytes) dropped: the log limit is 10 lines or 5 bytes",
    )
  })
})

test("utf8Length agrees with TextEncoder, lone surrogates included", () => {
  for (const text of ["", "ascii", "é", "✓", "🙂", "a\ud800b", "\udc00", "x🙂é✓\ud83d"]) {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length)
  }
})

test("fits and drop let the host count a line it never copied out of the sandbox", () => {
  const logs = createLogBuffer({ maxLogLines: 10, maxLogBytes: 10 })
  expect(logs.fits(10)).toBe(true)
  expect(logs.fits(11)).toBe(false)
  logs.drop(1_000_000)
  expect(logs.fits(1)).toBe(false)
  logs.push("log", "late")
  expect(logs.entries()).toEqual([
    {
      level: "warn",
      message: "[switchboard] 2 more log lines (1000004 bytes) dropped: the log limit is 10 lines or 10 bytes",
    },
  ])
})
