import { describe, expect, it } from "vitest"
import { capShapeSize, countShapeNodes } from "./cap-shape-size.js"
import { inferShape } from "./infer-shape.js"
import { merge, mergeShapes } from "./merge-shapes.js"
import { callerTag } from "./map-like.js"
import { mergeStoredShapes, normalizeShape } from "./normalize-shape.js"
import { type Shape, ShapeBounds, callersOf, mergeCallers } from "./shape.js"
import { shapeToTypeScript } from "./shape-to-typescript.js"

/** The shape of several calls' data, folded left as the store does, call after call. */
const observe = (values: unknown[]): Shape =>
  values.map((value) => inferShape(value)).reduce((a, b) => mergeShapes(a, b))
const ts = (values: unknown[]) => shapeToTypeScript(observe(values))

describe("mergeShapes over calls", () => {
  const cases: [string, unknown[], string][] = [
    [
      "a key in every sample is required, one in some is optional",
      [{ id: 1, next: "c1" }, { id: 2 }],
      "{\n  id: number\n  next?: string\n}",
    ],
    ["differing types widen to a union", ["text", 3], "string | number"],
    ["null joins as | null", [{ name: "a" }, { name: null }], "{\n  name: string | null\n}"],
    ["integers and floats are both number", [1, 2.5], "number"],
    ["an object and an array widen", [{ a: 1 }, [1]], "{\n  a: number\n} | number[]"],
    ["an empty array learns its items later", [{ tags: [] }, { tags: ["x"] }], "{\n  tags: string[]\n}"],
    [
      "arrays of objects merge into one item shape, across calls",
      [
        [{ id: 1, title: "a" }],
        [
          { id: 2, title: "b", closedAt: "2026-11-02" },
          { id: 3, title: null, closedAt: "2026-11-03" },
        ],
      ],
      "Array<{\n  id: number\n  title: string | null\n  closedAt?: string\n}>",
    ],
    [
      "a nested optional key counts object instances",
      [{ page: { items: [{ a: 1 }, { a: 2, b: true }] } }],
      "{\n  page: {\n    items: Array<{\n      a: number\n      b?: boolean\n    }>\n  }\n}",
    ],
    [
      "a string data and structured data (a tool that degrades to text)",
      [{ rows: [] }, "no rows"],
      "string | {\n  rows: unknown[]\n}",
    ],
  ]
  it.each(cases)("%s", (_name, values, expected) => {
    expect(ts(values)).toBe(expected)
  })
})

describe("map-like objects across calls", () => {
  it("keys that differ per call become Record<string, T>", () => {
    const names = [
      "alice",
      "bob",
      "carol",
      "dave",
      "erin",
      "frank",
      "grace",
      "heidi",
      "ivan",
      "judy",
      "mallory",
      "niaj",
      "olivia",
      "peggy",
      "rupert",
      "sybil",
      "trent",
      "victor",
      "walter",
      "zoe",
    ]
    const calls = [0, 1, 2, 3, 4].map((c) => ({
      counts: Object.fromEntries(names.slice(c * 4, c * 4 + 4).map((n, i) => [n, i])),
    }))
    expect(ts(calls)).toBe("{\n  counts: Record<string, number>\n}")
  })

  it("a struct with some optional fields stays a struct", () => {
    const full = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field${i}`, i]))
    const sparse = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, i]))
    const shape = observe([full, sparse, full, sparse])
    expect(shape.kind).toBe("object")
    expect(shapeToTypeScript(shape)).toContain("  field0: number\n")
    expect(shapeToTypeScript(shape)).toContain("  field19?: number\n")
  })

  it("the union of keys over 64 becomes a record", () => {
    const a = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, "x"]))
    const b = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`b${i}`, "y"]))
    expect(ts([a, b])).toBe("Record<string, string>")
  })

  it("an object merged into a record feeds its values", () => {
    expect(ts([{ "2026-11-01": 1, "2026-11-02": 2 }, { "2026-11-03": "n/a" }])).toBe("Record<string, string | number>")
  })
})

describe("merge laws", () => {
  const samples: unknown[] = [
    { id: 1, user: { login: "a" }, tags: ["x"] },
    { id: 2, user: null, tags: [] },
    { id: 3, user: { login: "b", admin: true }, extra: 1.5 },
    "text",
    [{ id: 4 }],
  ]
  const shapes = samples.map((value) => inferShape(value))
  // Keys keep the order they were first seen in, so a merge is commutative up to key order.
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value
  it("is commutative up to key order", () => {
    for (const a of shapes)
      for (const b of shapes) expect(canonical(mergeShapes(a, b))).toEqual(canonical(mergeShapes(b, a)))
  })
  it("is associative on real samples", () => {
    const left = shapes.reduce((a, b) => mergeShapes(a, b))
    const right = shapes.reduceRight((a, b) => mergeShapes(b, a))
    expect(shapeToTypeScript(left)).toBe(shapeToTypeScript(right))
    expect(JSON.stringify(left)).toBe(JSON.stringify(right))
  })
  it("unknown absorbs: a place past a bound stays unknown", () => {
    expect(mergeShapes({ kind: "unknown" }, inferShape("s"))).toEqual({ kind: "unknown" })
    expect(ts([{ a: 1 }, { a: undefined }])).toBe("{\n  a: unknown\n}")
  })
  it("never mutates its inputs", () => {
    const a = inferShape({ x: 1 })
    const before = JSON.stringify(a)
    mergeShapes(a, inferShape({ y: "s" }))
    expect(JSON.stringify(a)).toBe(before)
  })
})

describe("bounds on a merged shape", () => {
  it("a union wider than 8 members, from storage, is unknown", () => {
    const members = Array.from({ length: 9 }, () => ({ kind: "string" }))
    expect(normalizeShape({ kind: "union", members })).toEqual({ kind: "unknown" })
  })

  it("the whole shape is capped at maxShapeNodes, keeping the shallowest nodes", () => {
    // 60 keys x 60 keys x 3 levels: every per-node bound holds, the whole does not.
    const level = (depth: number): unknown =>
      depth === 0 ? 1 : Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, level(depth - 1)]))
    const shape = capShapeSize(merge(inferShape({ a: level(1) }), inferShape({ b: level(2) })))
    expect(countShapeNodes(shape, Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(ShapeBounds.maxShapeNodes)
    const text = shapeToTypeScript(shape)
    expect(text).toContain("a?: {")
    expect(text).toContain("b?: {")
    expect(text).toContain(": unknown")
  })
})

describe("normalizeShape and mergeStoredShapes", () => {
  it("round-trips a stored shape exactly", () => {
    const shape = observe([
      { a: [1, "x"], b: { c: null } },
      { a: [], d: true },
    ])
    expect(normalizeShape(JSON.parse(JSON.stringify(shape)))).toEqual(JSON.parse(JSON.stringify(shape)))
  })

  const garbage: [string, unknown][] = [
    ["null", null],
    ["a number", 7],
    ["an unknown kind", { kind: "date" }],
    ["an object without fields", { kind: "object", samples: 1 }],
    ["a union without members", { kind: "union" }],
  ]
  it.each(garbage)("reads %s as unknown", (_name, value) => {
    expect(normalizeShape(value)).toEqual({ kind: "unknown" })
  })

  it("clamps counts so a bad row cannot make a key required that was not", () => {
    const stored = {
      kind: "object",
      samples: 2,
      fields: { a: { shape: { kind: "string" }, seen: 99 }, b: { shape: { kind: "number" }, seen: -1 } },
    }
    expect(shapeToTypeScript(normalizeShape(stored))).toBe("{\n  a: string\n  b?: number\n}")
  })

  it("replaces a stored value that is not a shape instead of letting it absorb every later call", () => {
    expect(shapeToTypeScript(mergeStoredShapes("garbage", inferShape({ a: 1 })))).toBe("{\n  a: number\n}")
    expect(
      shapeToTypeScript(mergeStoredShapes(JSON.parse(JSON.stringify(inferShape({ a: 1 }))), inferShape({ b: "x" }))),
    ).toBe("{\n  a?: number\n  b?: string\n}")
  })
})

describe("which callers' results held a key", () => {
  const alice = callerTag("alice-key-id")
  const bob = callerTag("bob-key-id")
  const rendered = (...shapes: Shape[]) => shapeToTypeScript(shapes.reduce((a, b) => mergeShapes(a, b)))

  it("a key held only by one caller's results is not named, however often", () => {
    const one = inferShape({ total: 1, balances: { alicesmith: 10 } }, alice)
    expect(rendered(one, one, one)).toBe("Record<string, unknown>")
  })

  it("a key held by two callers' results is named; an object with only hidden keys is a record", () => {
    const text = rendered(
      inferShape({ total: 1, balances: { alicesmith: 10 } }, alice),
      inferShape({ total: 2, balances: { bobjones: 3 } }, bob),
    )
    expect(text).toBe("{\n  total: number\n  balances: Record<string, unknown>\n}")
  })

  it("with keys off (no caller), every key is named", () => {
    expect(rendered(inferShape({ balances: { alicesmith: 10 } }))).toContain("alicesmith")
  })

  it("callers survive storage; a stored `by` that is not a list of tags never makes a key more visible", () => {
    const stored = JSON.parse(JSON.stringify(inferShape({ total: 1 }, alice)))
    expect(shapeToTypeScript(normalizeShape(stored))).toBe("Record<string, unknown>")
    stored.fields.total.by = "everyone"
    expect(shapeToTypeScript(normalizeShape(stored))).toBe("Record<string, unknown>")
    stored.fields.total.by = [alice, bob]
    expect(shapeToTypeScript(normalizeShape(stored))).toBe("{\n  total: number\n}")
  })

  it("a merge that adds no caller keeps the array it had; one that does adds it, once", () => {
    const callers = callersOf(alice)!
    expect(mergeCallers(callers, callers)).toBe(callers)
    expect(mergeCallers(callers, [alice!])).toBe(callers)
    expect(mergeCallers(callers, [bob!, alice!, bob!])).toEqual([alice, bob])
    expect(mergeCallers(callers, undefined)).toBeUndefined()
    expect(callersOf(undefined)).toBeUndefined()
  })

  it("one execution's results, inferred with its callers array, share it when merged", () => {
    const callers = callersOf(alice)
    const merged = mergeShapes(inferShape({ total: 1, n: 2 }, callers), inferShape({ total: 2, n: 3 }, callers))
    expect(merged.kind === "object" && merged.fields.total?.by).toBe(callers)
    expect(shapeToTypeScript(merged)).toBe(
      rendered(inferShape({ total: 1, n: 2 }, alice), inferShape({ total: 2, n: 3 }, alice)),
    )
  })

  it("an object with shared and hidden keys names the shared ones and says there are more", () => {
    const text = rendered(inferShape({ total: 1, alicesmith: 2 }, alice), inferShape({ total: 3 }, bob))
    expect(text).toBe("{\n  total: number\n  [key: string]: unknown\n}")
  })
})
