/**
 * Issue 13 §6: a learned shape is served to every caller, so it must never carry a key that could be one
 * caller's data. Each case would put a value into `POST /v1/describe` for everyone if the rule slipped.
 */
import { describe, expect, it } from "vitest"
import { inferShape } from "./infer-shape.js"
import { isDataLikeKey } from "./map-like.js"
import { mergeShapes } from "./merge-shapes.js"
import { mergeStoredShapes, normalizeShape } from "./normalize-shape.js"
import { shapeToTypeScript } from "./shape-to-typescript.js"

const observe = (values: unknown[]) => values.map((value) => inferShape(value)).reduce((a, b) => mergeShapes(a, b))
/** what describe serves after the store merged these calls one by one, through JSON as it is stored */
const served = (values: unknown[]) =>
  shapeToTypeScript(
    normalizeShape(
      values.reduce<unknown>(
        (stored, value) => JSON.parse(JSON.stringify(mergeStoredShapes(stored, inferShape(value)))),
        null,
      ),
    ),
  )

const dataKeys: [string, string][] = [
  ["an email", "alice@example.com"],
  ["a URL", "https://internal.example.com/a?token=x"],
  ["a host name", "db01.internal.example.com"],
  ["a path", "/home/alice/.ssh/id_rsa"],
  ["a Windows path", "C:\\Users\\alice"],
  ["a long number", "4111111111111111"],
  ["a phone number in a word", "tel0471234567"],
  ["a prefixed id", "tok_8f9a7b6c5d4e"],
  ["a base62 token", "aZ9kQ2xLm4Pq7RtY"],
  ["a hex digest", "deadbeefcafebabe0123"],
  ["a UUID", "0b7e2a86-1f4e-4c1a-9a55-2f1c0e9b7d11"],
  ["a key with a space", "Alice Smith"],
  ["a key with @", "@alice"],
  ["a date", "2026-11-02"],
  ["an empty key", ""],
]

describe("keys that could be data are never stored", () => {
  it.each(dataKeys)("%s is data-like", (_name, key) => {
    expect(isDataLikeKey(key)).toBe(true)
  })

  it.each(dataKeys)("an object with %s as a key becomes a record, even beside field names", (_name, key) => {
    const value = { id: 7, [key]: { role: "admin" } }
    const text = served([value])
    expect(text).toBe("Record<string, number | {\n  role: string\n}>")
    expect(JSON.stringify(observe([value]))).not.toContain(key === "" ? '""' : key)
  })

  it.each(["id", "userName", "created_at", "Content-Type", "$schema", "_links", "sha256", "größe", "item2"])(
    "%s is a field name",
    (key) => {
      expect(isDataLikeKey(key)).toBe(false)
    },
  )

  it("a stored shape from an older build that holds a data key is served as a record", () => {
    const stored = {
      kind: "object",
      samples: 1,
      fields: {
        "alice@example.com": { shape: { kind: "string" }, seen: 1 },
        ok: { shape: { kind: "boolean" }, seen: 1 },
      },
    }
    expect(shapeToTypeScript(normalizeShape(stored))).toBe("Record<string, string | boolean>")
  })
})

describe("a key seen in only one of many samples is not kept", () => {
  it("one caller's name as a key is gone once the tool has been called three times", () => {
    const text = served([{ total: 1, alice: { role: "admin" } }, { total: 2 }, { total: 3 }])
    expect(text).toBe("{\n  total: number\n}")
    expect(text).not.toContain("alice")
  })

  it("a key seen twice stays, optional", () => {
    expect(served([{ total: 1, note: "a" }, { total: 2 }, { total: 3, note: "b" }])).toBe(
      "{\n  total: number\n  note?: string\n}",
    )
  })

  it("a key first seen late is kept once it comes back, and until then only its hash is stored", () => {
    const calls = [{ total: 1 }, { total: 2 }, { total: 3 }, { total: 4, cursor: "a" }]
    const stored = JSON.stringify(
      calls.reduce<unknown>((shape, value) => mergeStoredShapes(shape, inferShape(value)), null),
    )
    expect(stored).not.toContain("cursor")
    expect(served(calls)).toBe("{\n  total: number\n}")
    expect(served([...calls, { total: 5, cursor: "b" }])).toBe("{\n  total: number\n  cursor?: string\n}")
  })

  it("before the budget, a key of one sample is kept (nothing else tells a struct from a map yet)", () => {
    expect(served([{ total: 1, next: "c" }, { total: 2 }])).toBe("{\n  total: number\n  next?: string\n}")
  })

  it("keys that differ in every call still turn the object into a record once there are many", () => {
    const names = Array.from({ length: 24 }, (_, i) => `person${String.fromCharCode(97 + i)}`)
    const calls = [0, 1, 2, 3, 4, 5].map((c) => ({
      counts: Object.fromEntries(names.slice(c * 4, c * 4 + 4).map((n, i) => [n, i])),
    }))
    const text = served(calls)
    expect(text).toBe("{\n  counts: Record<string, number>\n}")
    for (const name of names) expect(text).not.toContain(name)
  })
})
