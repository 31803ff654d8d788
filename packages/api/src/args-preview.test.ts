import { describe, expect, it } from "vitest"
import { argsPreview, cutNote, escapeUnsafe, safeJson } from "./args-preview.js"

describe("argsPreview", () => {
  it("shows a call that fits whole, and names nothing", () => {
    const preview = argsPreview({ to: "bob", amount: 5 }, 100)
    expect(preview).toEqual({ text: '{"to":"bob","amount":5}', cut: [] })
    expect(cutNote(preview)).toBe("")
  })

  it("a long harmless field first does not hide the fields after it: they are shown whole, and the cut one is named", () => {
    const args = { memo: "thanks for lunch ".repeat(3_000), to: "mallory@evil.example", amount: 1_000_000 }
    const preview = argsPreview(args, 200)
    expect(preview.text).toContain('"to":"mallory@evil.example"')
    expect(preview.text).toContain('"amount":1000000')
    expect(preview.text).toMatch(/^\{"memo":"thanks for lunch thanks.*…\(51002 chars\),"to"/)
    expect(preview.text.length).toBeLessThanOrEqual(240)
    expect(preview.cut).toEqual(["memo"])
    expect(cutNote(preview)).toBe("not shown whole: memo")
  })

  it("shares the room fairly between two long fields, and names both", () => {
    const preview = argsPreview({ a: "x".repeat(5_000), b: "y".repeat(5_000), c: 1 }, 120)
    expect(preview.cut).toEqual(["a", "b"])
    const xs = /"x+/.exec(preview.text)![0].length
    const ys = /"y+/.exec(preview.text)![0].length
    expect(Math.abs(xs - ys)).toBeLessThanOrEqual(1)
    expect(preview.text).toContain('"c":1')
  })

  it("goes into nested objects, so a nested recipient is shown and the nested memo named by its path", () => {
    const preview = argsPreview({ payment: { memo: "m".repeat(10_000), to: "mallory" } }, 150)
    expect(preview.text).toContain('"to":"mallory"')
    expect(preview.cut).toEqual(["payment.memo"])
  })

  it("counts the items of a long array it leaves out, and the fields of a huge object, naming where they start", () => {
    const list = argsPreview({ items: Array.from({ length: 1_000 }, (_, i) => i) }, 80)
    expect(list.text).toMatch(/^\{"items":\[0,1,2,.*,…\d+ more items\]\}$/)
    expect(list.cut).toEqual([expect.stringMatching(/^items\[\d+…\]$/)])
    const wide = argsPreview(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])), 200)
    expect(wide.text.length).toBeLessThan(400)
    expect(wide.cut).toEqual([expect.stringMatching(/^\d+ more fields from k\d+$/)])
    expect(wide.text).toMatch(/,…\d+ more fields\}$/)
  })

  it("escapes control and bidi characters in values and in field names", () => {
    const preview = argsPreview({ "to\u202e": "moc.live@yrallam\u202c", note: "a\u0007b\u2066c" }, 500)
    expect(preview.text).toBe('{"to\\u202e":"moc.live@yrallam\\u202c","note":"a\\u0007b\\u2066c"}')
    expect(preview.text).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/)
  })
})

describe("escapeUnsafe and safeJson", () => {
  it("leave ordinary text alone, emoji and accents included", () => {
    expect(escapeUnsafe("Zoë 👋 naïve")).toBe("Zoë 👋 naïve")
  })

  it("write each unsafe character as \\uXXXX, and what they write is JSON that reads back to the same value", () => {
    const value = { s: "\u202eabc\u2028\u0085\u200b\ufeff\u061c\n" }
    const text = safeJson(value)
    expect(text).toBe('{"s":"\\u202eabc\\u2028\\u0085\\u200b\\ufeff\\u061c\\n"}')
    expect(JSON.parse(text)).toEqual(value)
  })
})
