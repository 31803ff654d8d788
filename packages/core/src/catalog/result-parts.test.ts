import { expect, it } from "vitest"
import { splitUtf8 } from "./result-parts.js"

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

it("keeps a text that fits whole, without measuring it", () => {
  expect(splitUtf8("abc", 9)).toEqual(["abc"])
  expect(splitUtf8("", 4)).toEqual([""])
  const big = "x".repeat(1_000)
  expect(splitUtf8(big, Number.POSITIVE_INFINITY)[0]).toBe(big)
})

it("cuts by UTF-8 bytes, each part at most the allowance, and the parts join to the text", () => {
  const text = "aé€😀".repeat(1_000) // 1 + 2 + 3 + 4 bytes
  for (const max of [4, 5, 7, 10, 11, 1_000]) {
    const parts = splitUtf8(text, max)
    expect(parts.join("")).toBe(text)
    for (const part of parts) {
      expect(utf8Bytes(part)).toBeLessThanOrEqual(max)
      expect(part.length).toBeGreaterThan(0)
    }
    // as full as the next character allows: no part could have taken the next one
    for (let i = 0; i < parts.length - 1; i++) {
      const next = String.fromCodePoint(parts[i + 1]!.codePointAt(0)!)
      expect(utf8Bytes(parts[i]!) + utf8Bytes(next)).toBeGreaterThan(max)
    }
  }
})

it("never cuts a surrogate pair, even where the allowance ends between its halves", () => {
  // 3 ASCII bytes then a 4-byte pair: with 5 bytes a part, the pair's halves straddle every first cut
  const text = "abc😀".repeat(50)
  const parts = splitUtf8(text, 5)
  expect(parts.join("")).toBe(text)
  for (const part of parts) {
    // what a driver would write: encoding the part loses nothing
    expect(new TextDecoder().decode(new TextEncoder().encode(part))).toBe(part)
  }
})

it("counts a lone surrogate as the 3 bytes of the U+FFFD it is written as", () => {
  const text = "\uD800ab\uDC00".repeat(100)
  const parts = splitUtf8(text, 8)
  expect(parts.join("")).toBe(text)
  for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(8)
})

it("refuses an allowance too small for one character", () => {
  expect(() => splitUtf8("😀😀", 3)).toThrow(/at least 4 bytes/)
})
