import { describe, expect, it } from "vitest"
import { grepOutput, readOutputLines } from "./read-output.js"

const text = Array.from({ length: 10 }, (_, i) => `row ${i}${i % 3 === 0 ? " fizz" : ""}`).join("\n")

describe("readOutputLines", () => {
  it.each([
    [0, 3, ["row 0 fizz", "row 1", "row 2"], 3],
    [8, 5, ["row 8", "row 9 fizz"], null],
    [20, 5, [], null],
  ])("offset %i limit %i", (offset, limit, lines, nextOffset) => {
    expect(readOutputLines(text, offset, limit)).toMatchObject({ lines, totalLines: 10, nextOffset })
  })
})

describe("grepOutput", () => {
  it("answers matching lines with the text's own line numbers", () => {
    expect(grepOutput(text, "fizz$")).toEqual({ ok: true, matches: [0, 3, 6, 9].map((n) => ({ line: n, text: `row ${n} fizz` })), totalLines: 10, truncated: false })
  })
  it("a bad regex is a clear error", () => {
    expect(grepOutput(text, "(")).toMatchObject({ ok: false, message: expect.stringMatching(/not a valid regular expression/) })
  })
  it.each(["(a+)+$", "((a+))+$", "(a|a)+$", "(a|aa)+$", "(\\w|\\d)+$"])("%s runs in linear time on RE2 and answers", (pattern) => {
    const line = "a".repeat(50_000) + "!"
    expect(grepOutput(`${line}\n!!`, pattern)).toMatchObject({ ok: true, matches: [] })
  })
  it("lookaround is not RE2 syntax and says so", () => {
    expect(grepOutput(text, "(?=row)")).toMatchObject({ ok: false, message: expect.stringMatching(/RE2 syntax/) })
  })
})

it("a line longer than the page budget is cut with a marker, in pages and in matches", () => {
  const long = "x".repeat(10_000)
  expect(readOutputLines(`a\n${long}`, 1, 1).lines[0]).toMatch(/^x{4000}…\[line continues: 6000 more characters\]$/)
  const found = grepOutput(long, "x")
  expect(found.ok && found.matches[0]!.text.length).toBeLessThan(4_100)
})
