import { describe, expect, it } from "vitest"
import { parseExactJson, type ExactJsonResult } from "./exact-json.js"

const no: ExactJsonResult = { ok: false }
const yes = (value: unknown): ExactJsonResult => ({ ok: true, value })

type Row = [name: string, text: string, expected: ExactJsonResult]

const rows: Row[] = [
  // accepted: one object or array, parsed without loss
  ["object", '{"a":1,"b":[true,false,null],"c":"x"}', yes({ a: 1, b: [true, false, null], c: "x" })],
  ["array", "[1,2,3]", yes([1, 2, 3])],
  ["empty object", "{}", yes({})],
  ["empty array", "[]", yes([])],
  ["whitespace-padded (space, tab, LF, CR)", ' \n\r\t{"a":1}\t \n', yes({ a: 1 })],
  ["indented", '{\n  "a": {\n    "b": [\n      1,\n      2\n    ]\n  }\n}', yes({ a: { b: [1, 2] } })],
  ["non-integer numbers are fine", "[1.5, -0.25, 6.02e23, 1E-400, 0.1]", yes([1.5, -0.25, 6.02e23, 0, 0.1])],
  [
    "safe integer bounds",
    "[9007199254740991, -9007199254740991, 0, -0]",
    yes([9007199254740991, -9007199254740991, 0, -0]),
  ],
  [
    "15-digit and 16-digit safe integers",
    "[999999999999999, 1000000000000000, 9007199254740990]",
    yes([999999999999999, 1e15, 9007199254740990]),
  ],
  [
    "largest finite double",
    "[1.7976931348623157e308, -1.7976931348623157e308]",
    yes([1.7976931348623157e308, -1.7976931348623157e308]),
  ],
  [
    "big number inside a string is not a number",
    '{"id":"9007199254740993","n":"1e400"}',
    yes({ id: "9007199254740993", n: "1e400" }),
  ],
  ["same key in sibling objects", '[{"a":1},{"a":2}]', yes([{ a: 1 }, { a: 2 }])],
  ["same key in parent and child", '{"a":{"a":{"a":1}}}', yes({ a: { a: { a: 1 } } })],
  [
    "parent keys continue after a closed child",
    '{"a":{"x":1,"y":2},"b":{"x":3},"c":4}',
    yes({ a: { x: 1, y: 2 }, b: { x: 3 }, c: 4 }),
  ],
  ["key-like string values are not keys", '{"a":"b","b":"a","c":["a","a"]}', yes({ a: "b", b: "a", c: ["a", "a"] })],
  [
    "escaped quote and backslash in strings",
    '{"q\\"":"\\\\","k\\\\":"\\"\\\\\\"","e":"\\\\\\""}',
    yes({ 'q"': "\\", "k\\": '"\\"', e: '\\"' }),
  ],
  ["string ending in an escaped backslash", '["a\\\\", "b"]', yes(["a\\", "b"])],
  ["distinct keys differing by an escape", '{"a":1,"a\\"":2,"\\\\a":3}', yes({ a: 1, 'a"': 2, "\\a": 3 })],
  ["unicode escapes and lone surrogate", '{"\\u00e9":"\\ud800","é2":1}', yes({ é: "\ud800", é2: 1 })],
  [
    "30 distinct keys (Set path)",
    `{${Array.from({ length: 30 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
    yes(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]))),
  ],
  ["numbers next to structure", '{"a":[-1,2],"b":-3}', yes({ a: [-1, 2], b: -3 })],

  // rejected: loss
  ["unsafe integer 2^53+1", "[9007199254740993]", no],
  ["unsafe negative integer", '{"n":-9007199254740993}', no],
  ["2^53 is outside ±(2^53−1)", "[9007199254740992]", no],
  ["20-digit integer", "[12345678901234567890]", no],
  ["overflow 1e400", "[1e400]", no],
  ["overflow -1e400", '{"x":-1e400}', no],
  ["overflow without exponent (309 digits + fraction)", `[${"9".repeat(309)}.5]`, no],
  ["overflow just past the largest double", "[1.8e308]", no],
  ["duplicate key", '{"a":1,"a":2}', no],
  ["duplicate key via unicode escape", '{"a":1,"\\u0061":2}', no],
  ["duplicate escaped keys", '{"a\\"b":1,"a\\u0022b":2}', no],
  ["duplicate key nested in an array", '[{"x":1},{"y":1,"z":2,"y":3}]', no],
  ["duplicate key after a closed child", '{"a":{"b":1},"a":2}', no],
  [
    "duplicate key in a wide object (Set path)",
    `{${Array.from({ length: 30 }, (_, i) => `"k${i}":${i}`).join(",")},"k3":0}`,
    no,
  ],
  ["duplicate __proto__", '{"__proto__":1,"__proto__":2}', no],

  // rejected: not one object or array
  ["scalar number", "42", no],
  ["scalar true", "true", no],
  ["scalar null", "null", no],
  ["scalar string", '"hi"', no],
  ["leading zero", "007", no],
  ["leading zero inside an array", "[007]", no],
  ["NDJSON", '{"a":1}\n{"a":2}', no],
  ["trailing prose", '{"a":1} that is all', no],
  ["leading prose", 'Result: {"a":1}', no],
  ["BOM prefix", '\ufeff{"a":1}', no],
  ["non-JSON whitespace (NBSP) prefix", '\u00a0{"a":1}', no],
  ["empty string", "", no],
  ["whitespace only", " \n\t", no],
  ["truncated", '{"a":[1,2', no],
  ["NaN", "[NaN]", no],
  ["raw newline inside a string", '["a\nb"]', no],
  ["single quotes", "{'a':1}", no],
]

describe("parseExactJson", () => {
  it.each(rows)("%s", (_name, text, expected) => {
    expect(parseExactJson(text)).toEqual(expected)
  })

  it("keeps __proto__ as an own data property, never a prototype", () => {
    const result = parseExactJson('{"__proto__":{"polluted":true},"a":[{"__proto__":[1]}]}')
    expect(result.ok).toBe(true)
    const value = (result as { ok: true; value: any }).value
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value, "__proto__")).toBe(true)
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true })
    expect(value.polluted).toBeUndefined()
    expect(Object.getPrototypeOf(value.a[0])).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(value.a[0], "__proto__")?.value).toEqual([1])
    expect(({} as any).polluted).toBeUndefined()
  })

  it("handles a multi-megabyte text in one linear pass", () => {
    const item = { id: 123456789, name: 'x"y\\z', tags: ["a", "b"], score: 0.5, nested: { ok: true } }
    const text = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ ...item, i })))
    expect(text.length).toBeGreaterThan(3_000_000)
    const started = performance.now()
    const result = parseExactJson(text)
    const elapsed = performance.now() - started
    expect(result.ok).toBe(true)
    expect(elapsed).toBeLessThan(2000)
    expect(parseExactJson(text.slice(0, -1) + ',{"a":9007199254740993}]')).toEqual(no)
  })

  it("handles deep nesting without recursion", () => {
    const depth = 50_000
    const result = parseExactJson("[".repeat(depth) + "]".repeat(depth))
    expect(result.ok).toBe(true)
  })
})
