import { describe, expect, it } from "vitest"
import { countShapeNodes } from "./cap-shape-size.js"
import { inferShape } from "./infer-shape.js"
import { normalizeShape } from "./normalize-shape.js"
import { ShapeBounds } from "./shape.js"
import { shapeToTypeScript } from "./shape-to-typescript.js"

const ts = (value: unknown) => shapeToTypeScript(inferShape(value))

describe("inferShape: one value", () => {
  const cases: [string, unknown, string][] = [
    ["a string (content never kept)", "secret text", "string"],
    ["an integer", 42, "number"],
    ["a float", 0.5, "number"],
    ["a boolean", false, "boolean"],
    ["null", null, "null"],
    ["undefined (not JSON)", undefined, "unknown"],
    ["an empty array", [], "unknown[]"],
    ["an empty object", {}, "Record<string, unknown>"],
    ["an array of strings", ["a", "b"], "string[]"],
    ["an array of mixed scalars", [1, "two", null], "Array<string | number | null>"],
    ["nested arrays", [[1, 2], [3]], "number[][]"],
    [
      "a search result (server-everything style)",
      {
        total: 2,
        items: [
          { id: 1, title: "a", labels: ["bug"] },
          { id: 2, title: "b", labels: [], assignee: { login: "x" } },
        ],
      },
      "{\n  total: number\n  items: Array<{\n    id: number\n    title: string\n    labels: string[]\n    assignee?: {\n      login: string\n    }\n  }>\n}",
    ],
    ["items of different kinds in one array", [{ a: 1 }, [1], "s"], "Array<string | {\n  a: number\n} | number[]>"],
    [
      "field names that are not identifiers are quoted",
      { "content-type": "x", "x-rate": 1, ok: 1 },
      '{\n  "content-type": string\n  "x-rate": number\n  ok: number\n}',
    ],
  ]
  it.each(cases)("%s", (_name, value, expected) => {
    expect(ts(value)).toBe(expected)
  })
})

describe("inferShape: map-like objects become records", () => {
  const wide = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`key${i}`, i]))
  const cases: [string, unknown, string][] = [
    ["more than 64 keys", wide, "Record<string, number>"],
    [
      "dates as keys",
      { "2026-11-01": { views: 3 }, "2026-11-02": { views: 5 } },
      "Record<string, {\n  views: number\n}>",
    ],
    ["numeric ids as keys", { "1042": "open", "1043": "closed" }, "Record<string, string>"],
    [
      "uuids as keys",
      { "0b7e2a86-1f4e-4c1a-9a55-2f1c0e9b7d11": 1, "5d1c2b3a-0000-4000-8000-000000000001": 2 },
      "Record<string, number>",
    ],
    ["one numeric key is data too", { "200": "ok" }, "Record<string, string>"],
    [
      "a struct with 64 keys stays an object",
      Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`f${i}`, i])),
      expect.stringMatching(/^\{\n {2}f0: number\n/) as unknown as string,
    ],
  ]
  it.each(cases)("%s", (_name, value, expected) => {
    expect(ts(value)).toEqual(expected)
  })
})

describe("inferShape: bounds", () => {
  const nest = (levels: number) => {
    let value: unknown = "leaf"
    for (let i = 0; i < levels; i++) value = { next: value }
    return value
  }

  it("keeps 8 levels of containers, then unknown", () => {
    const shape = inferShape(nest(50))
    const text = shapeToTypeScript(shape)
    expect(text.match(/next/g)).toHaveLength(ShapeBounds.maxDepth)
    expect(text).toContain("next: unknown")
  })

  it("a 100,000-level array nesting costs no more than 8 levels", () => {
    let value: unknown = 1
    for (let i = 0; i < 100_000; i++) value = [value]
    expect(shapeToTypeScript(inferShape(value))).toBe(`${"unknown"}${"[]".repeat(ShapeBounds.maxDepth)}`)
  })

  it("samples at most 50 items of an array, spread over it, first and last included", () => {
    const read: number[] = []
    const items = Array.from({ length: 10_000 }, (_, i) => (i === 9_999 ? "last" : i))
    const spy = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) read.push(Number(key))
        return Reflect.get(target, key, receiver)
      },
    })
    expect(ts(spy)).toBe("Array<string | number>")
    expect(read.length).toBe(ShapeBounds.maxArrayItems)
    expect(read).toContain(0)
    expect(read).toContain(9_999)
  })

  it("reads at most 65 keys of an object however many it has", () => {
    const huge = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, { n: i }]))
    let reads = 0
    const spy = new Proxy(huge, {
      get(target, key, receiver) {
        reads++
        return Reflect.get(target, key, receiver)
      },
    })
    expect(ts(spy)).toBe("Record<string, {\n  n: number\n}>")
    expect(reads).toBeLessThanOrEqual(ShapeBounds.maxKeys)
  })

  it("a 1 MB value reads a bounded number of values, and its shape stays small", () => {
    let reads = 0
    const watch = (value: unknown): unknown => {
      if (typeof value !== "object" || value === null) return value
      return new Proxy(value, {
        get(target, key, receiver) {
          const got = Reflect.get(target, key, receiver)
          if (typeof key === "string" && Object.hasOwn(target, key)) reads++
          return watch(got)
        },
      })
    }
    const rows = Array.from({ length: 4_000 }, (_, i) => ({
      id: i,
      name: `row ${i}`,
      tags: ["a", "b", "c"],
      owner: { id: i, login: `user${i}`, roles: [{ name: "admin", scopes: ["read", "write"] }] },
      matrix: Array.from({ length: 10 }, () => [i, i + 1, i + 2]),
    }))
    const value = { rows, next: "cursor", total: rows.length }
    expect(JSON.stringify(value).length).toBeGreaterThan(1_000_000)
    const shape = inferShape(watch(value))
    // Past the budget, the objects already entered still type their remaining scalar keys (one read each).
    expect(reads).toBeLessThanOrEqual(ShapeBounds.maxVisited + ShapeBounds.maxDepth * (ShapeBounds.maxKeys + 1))
    expect(countShapeNodes(shape, Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(ShapeBounds.maxShapeNodes)
    const text = shapeToTypeScript(shape)
    expect(text).toContain("next: string")
    expect(text).toContain("total: number")
    expect(text).toContain("roles: Array<{")
  })

  it("a huge array does not starve the fields after it of the budget", () => {
    const big = Array.from({ length: 300 }, () => Array.from({ length: 100 }, () => ({ a: [{ b: [1] }] })))
    const text = ts({ big, after: { still: "typed" } })
    expect(text).toContain("after: {\n    still: string\n  }")
  })
})

describe("inferShape: keys that look like prototype machinery", () => {
  it("stores __proto__ as a plain key and pollutes nothing", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "toString": "x"}') as unknown
    const shape = inferShape(value)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const stored = JSON.stringify(shape)
    expect(stored).toContain('"__proto__":{"shape":{"kind":"object"')
    const text = "{\n  __proto__: {\n    polluted: boolean\n  }\n  constructor: number\n  toString: string\n}"
    expect(shapeToTypeScript(shape)).toBe(text)
    // Back from the database: JSON.parse gives an ordinary object with an own `__proto__` key.
    expect(shapeToTypeScript(normalizeShape(JSON.parse(stored)))).toBe(text)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("never mistakes an inherited name for a key", () => {
    expect(ts({ a: 1 })).toBe("{\n  a: number\n}")
    expect(shapeToTypeScript(normalizeShape(JSON.parse('{"kind":"object","samples":1,"fields":{}}')))).toBe(
      "Record<string, unknown>",
    )
  })
})
