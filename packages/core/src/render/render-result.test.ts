import { expect, it } from "vitest"
import { renderResult } from "./render-result.js"

it("takes media blocks out and renders the rest as renderForModel does", () => {
  const image = { type: "image", data: "AAAA", mimeType: "image/png" }
  expect(renderResult([image, { type: "text", text: "a" }], { inlineCap: 100, maxChars: 1000 })).toEqual({
    text: "a",
    media: [image],
  })
  expect(renderResult({ a: [1, 2] }, { inlineCap: 100, maxChars: 1000 })).toEqual({
    text: '{"a":[1,2]}',
    media: [],
    json: '{"a":[1,2]}',
  })
  expect(renderResult({ a: [{ b: 1 }] }, { inlineCap: 5, maxChars: 1000 }).text).toBe(
    '{\n "a": [\n  {\n   "b": 1\n  }\n ]\n}',
  )
})

it("gives an object's or array's JSON with its text, so nobody encodes the value again", () => {
  const value = { a: Array.from({ length: 50 }, (_, i) => ({ i })) }
  const rendered = renderResult(value, { inlineCap: 10, maxChars: 100_000 })
  expect(rendered.json).toBe(JSON.stringify(value))
  expect(rendered.text).toContain("\n")
  // a string is its own text, and a result holding media is rendered without its blocks: no JSON of the value
  expect(renderResult("x".repeat(50), { inlineCap: 10, maxChars: 100 }).json).toBeUndefined()
  const image = { type: "image", data: "AAAA", mimeType: "image/png" }
  expect(renderResult([image, { a: 1 }], { inlineCap: 10, maxChars: 100 }).json).toBeUndefined()
})
