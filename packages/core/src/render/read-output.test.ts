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
    expect(grepOutput(text, "fizz$")).toEqual({
      ok: true,
      matches: [0, 3, 6, 9].map((n) => ({ line: n, text: `row ${n} fizz` })),
      totalLines: 10,
      truncated: false,
    })
  })
  it("a bad regex is a clear error", () => {
    expect(grepOutput(text, "(")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a valid regular expression/),
    })
  })
  it.each(["(a+)+$", "((a+))+$", "(a|a)+$", "(a|aa)+$", "(\\w|\\d)+$"])(
    "%s runs in linear time on RE2 and answers",
    (pattern) => {
      const line = "a".repeat(50_000) + "!"
      expect(grepOutput(`${line}\n!!`, pattern)).toMatchObject({ ok: true, matches: [] })
    },
  )
  it("lookaround is not RE2 syntax and says so", () => {
    expect(grepOutput(text, "(?=row)")).toMatchObject({ ok: false, message: expect.stringMatching(/RE2 syntax/) })
  })
})

describe("long lines", () => {
  it("a line longer than a page is read in pieces: every character, with an offset to follow", () => {
    const long = Array.from({ length: 10_500 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("")
    const text = `head\n${long}\ntail`
    const first = readOutputLines(text, 0, 200)
    expect(first).toMatchObject({ offset: 0, charOffset: 0, nextOffset: 1, nextCharOffset: 4_000, totalLines: 3 })
    expect(first.lines[0]).toBe("head")
    expect(first.lines[1]).toBe(`${long.slice(0, 4_000)}…[line 1 continues: 6500 more characters from charOffset 4000]`)
    // follow the offsets to the end and put the line back together
    let pieces = long.slice(0, 4_000)
    let page = first
    while (page.nextCharOffset !== undefined) {
      page = readOutputLines(text, page.nextOffset!, 200, page.nextCharOffset)
      pieces += page.lines[0]!.replace(/…\[line 1 continues: .*\]$/, "")
    }
    expect(pieces).toBe(long)
    expect(page.lines).toEqual([long.slice(8_000), "tail"])
    expect(page.nextOffset).toBeNull()
  })

  it("a piece never ends or starts inside a surrogate pair", () => {
    const text = "x".repeat(3_999) + "\uD83D\uDE00" + "y".repeat(5_000)
    const first = readOutputLines(text, 0, 1)
    expect(first.nextCharOffset).toBe(3_999)
    expect(readOutputLines(text, 0, 1, first.nextCharOffset).lines[0]!.startsWith("\uD83D\uDE00y")).toBe(true)
  })

  it("grep shows a long line's match in its context, with where it is", () => {
    const line = "x".repeat(100_000) + "NEEDLE" + "y".repeat(100_000)
    const found = grepOutput(`short\n${line}`, "NEEDLE")
    expect(found.ok).toBe(true)
    const text = found.ok ? found.matches[0]!.text : ""
    expect(text).toBe(
      `[99800 characters before; the match starts at charOffset 100000]…${"x".repeat(200)}NEEDLE${"y".repeat(200)}…[99800 more characters]`,
    )
  })
})
