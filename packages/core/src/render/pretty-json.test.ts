import { describe, expect, it } from "vitest"
import { prettyJson } from "./pretty-json.js"

describe("prettyJson", () => {
  it("lays out the outer levels one member a line, like JSON.stringify(v, null, 1)", () => {
    const value = {
      items: [
        { id: 1, owner: { login: "a" } },
        { id: 2, tags: [] },
      ],
      next: null,
    }
    expect(prettyJson(value)).toBe(JSON.stringify(value, null, 1))
  })

  it("parses back to the same value, skipping what JSON skips", () => {
    const value = {
      a: undefined,
      b: [undefined, () => 1, { c: new Date(0) }],
      d: { e: { f: { g: { h: [1, { i: 2 }] } } } },
      "": "empty key",
      'x"y': "\u2028",
    }
    expect(JSON.parse(prettyJson(value)!)).toEqual(JSON.parse(JSON.stringify(value)))
    expect(prettyJson(undefined)).toBeUndefined()
    expect(prettyJson({ a: undefined })).toBe("{}")
  })

  it("an array of scalars stays on one line", () => {
    expect(prettyJson({ n: [1, 2, 3] })).toBe('{\n "n": [1,2,3]\n}')
  })

  it("past the indent depth, members are compact JSON on their parent's line", () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } }
    expect(prettyJson(deep, { maxIndentDepth: 2 })).toBe('{\n "a": {\n  "b": {"c":{"d":{"e":{"f":1}}}}\n }\n}')
  })

  it("a value nested 1,300 deep around 400,000 zeros stays within 3x of its compact JSON", () => {
    let value: unknown = new Array(4e5).fill(0)
    for (let i = 0; i < 1300; i++) value = [value]
    const compact = JSON.stringify(value)
    const pretty = prettyJson(value)!
    expect(pretty.length).toBeLessThanOrEqual(3 * compact.length)
    expect(pretty.split("\n").length).toBeGreaterThan(4)
    expect(JSON.stringify(JSON.parse(pretty))).toBe(compact)
  })

  it("the worst shapes for layout stay within 3x of compact JSON", () => {
    const cases = [
      Array.from({ length: 10_000 }, () => []),
      Array.from({ length: 10_000 }, () => [[[[]]]]),
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [String(i), {}])),
      [[[Array.from({ length: 10_000 }, () => ({}))]]],
    ]
    for (const value of cases) {
      const pretty = prettyJson(value)!
      expect(pretty.length).toBeLessThanOrEqual(3 * JSON.stringify(value).length)
      expect(JSON.stringify(JSON.parse(pretty))).toBe(JSON.stringify(value))
    }
  })

  it("a layout that would grow past the bound gives the compact JSON", () => {
    const chains = Array.from({ length: 1_000 }, () => [[[[]]]])
    expect(prettyJson(chains)).toBe(JSON.stringify(chains))
    expect(prettyJson(chains, { maxGrowth: 10 })!.split("\n").length).toBeGreaterThan(1_000)
  })
})
