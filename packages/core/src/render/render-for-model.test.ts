import { describe, expect, it } from "vitest"
import { inlineText, renderForModel, splitLines } from "./render-for-model.js"

describe("renderForModel", () => {
  it.each([
    ["a string is its own text, never quoted", 'say "hi"\n\tthere', 'say "hi"\n\tthere'],
    ["a lone high surrogate becomes U+FFFD", "a\uD800b", "a\uFFFDb"],
    ["a lone low surrogate becomes U+FFFD", "a\uDC00b", "a\uFFFDb"],
    ["a trailing lone surrogate becomes U+FFFD", "end\uD83D", "end\uFFFD"],
    ["a surrogate pair is kept", "smile \uD83D\uDE00", "smile \uD83D\uDE00"],
    ["the empty string is empty", "", ""],
    ["undefined is empty", undefined, ""],
    ["null is empty", null, ""],
    ["an object is JSON, encoded once", { a: 'x"y', b: [1, 2] }, '{"a":"x\\"y","b":[1,2]}'],
    ["a number is JSON", 42, "42"],
    ["false is JSON", false, "false"],
    ["an array of strings is JSON", ["a", "b"], '["a","b"]'],
    ["a lone surrogate inside an object is escaped by JSON, not lost", { s: "\uD800" }, '{"s":"\\ud800"}'],
  ])("%s", (_name, value, expected) => {
    expect(renderForModel(value)).toBe(expected)
  })

  it("JSON past the inline cap is indented, so it has lines to page by; below it, compact", () => {
    const value = { items: Array.from({ length: 3 }, (_, i) => ({ id: i })) }
    expect(renderForModel(value, 1_000)).toBe(JSON.stringify(value))
    expect(renderForModel(value, 10)).toBe(JSON.stringify(value, null, 1))
    expect(renderForModel(value, 10, 20)).toBe(JSON.stringify(value))
    expect(renderForModel(value, 10).split("\n").length).toBeGreaterThan(5)
  })

  it("a string costs its own length, not its JSON-quoted length", () => {
    const text = `She said "yes"\n`.repeat(100)
    expect(renderForModel(text).length).toBe(text.length)
    expect(JSON.stringify(text).length).toBeGreaterThan(text.length + 100)
  })
})

describe("inlineText", () => {
  it("measures the cap on the text itself: 3,900 characters fit a 3,900 cap", () => {
    const text = "x".repeat(3_900)
    expect(inlineText(text, { executionId: "e1", cap: 3_900 })).toEqual({
      text,
      truncated: false,
      totalLines: 1,
      totalChars: 3_900,
    })
    expect(inlineText(text + "y", { executionId: "e1", cap: 3_900 }).truncated).toBe(true)
  })

  it("past the cap: whole first lines, then a line saying how much there is and how to read the rest", () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => `line ${i}`)
    const inline = inlineText(lines.join("\n"), { executionId: "exec-1", cap: 100 })
    const shown = inline.text.split("\n")
    expect(shown.slice(0, -1)).toEqual(lines.slice(0, shown.length - 1))
    expect(shown.at(-1)).toMatch(/^\[output truncated: showing \d+ of 1000 lines \(\d+ characters in all\)/)
    expect(shown.at(-1)).toContain('read_output {"executionId":"exec-1"')
    expect(shown.at(-1)).toContain("/v1/executions/exec-1/output?offset=")
    expect(inline.totalLines).toBe(1_000)
  })

  it("a single line longer than the cap shows its beginning", () => {
    const inline = inlineText("z".repeat(500), { executionId: "e", cap: 100 })
    expect(
      inline.text.startsWith("z".repeat(100) + "\n[output truncated: showing 100 characters of line 0 of 1 lines"),
    ).toBe(true)
    expect(inline.text).toContain('read_output {"executionId":"e","offset":0,"charOffset":100,"limit":200}')
    expect(inline.text).toContain("/v1/executions/e/output?offset=0&charOffset=100&limit=200")
  })

  it("a surface may say in its own terms where to read the rest, from the line (and character) the cut left", () => {
    const readOn = ({
      executionId,
      offset,
      charOffset,
    }: {
      executionId: string
      offset: number
      charOffset?: number
    }) =>
      `switchboard executions output ${executionId} --offset ${offset}${charOffset === undefined ? "" : ` --char-offset ${charOffset}`}`
    const lines = inlineText(Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"), {
      executionId: "e2",
      cap: 30,
      readOn,
    })
    expect(lines.text.split("\n").at(-1)).toMatch(/ switchboard executions output e2 --offset 4\]$/)
    expect(lines.text).not.toContain("read_output")
    const long = inlineText("z".repeat(500), { executionId: "e3", cap: 100, readOn })
    expect(long.text).toMatch(/switchboard executions output e3 --offset 0 --char-offset 100\]$/)
  })

  it("splitLines keeps the text's own lines (\\r stays, a trailing newline makes an empty last line)", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a\r", "b", ""])
    expect(splitLines("")).toEqual([])
  })
})
