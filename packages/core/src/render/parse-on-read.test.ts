import { expect, it } from "vitest"
import { parseOnRead } from "./parse-on-read.js"

it("parses the JSON on the first read only, and a write replaces it", () => {
  const target: { value?: unknown } = {}
  parseOnRead(target, "value", '{"a":[1,2]}')
  const first = target.value
  expect(first).toEqual({ a: [1, 2] })
  expect(target.value).toBe(first)
  expect(JSON.stringify(target)).toBe('{"value":{"a":[1,2]}}')
  target.value = 3
  expect(target.value).toBe(3)
})

it("does not parse what is never read", () => {
  const target: { value?: unknown } = {}
  // not JSON: reading it would throw
  parseOnRead(target, "value", "{")
  expect(Object.keys(target)).toEqual(["value"])
})
