import { expect, it } from "vitest"
import { renderResult } from "./render-result.js"

it("takes media blocks out and renders the rest as renderForModel does", () => {
  const image = { type: "image", data: "AAAA", mimeType: "image/png" }
  expect(renderResult([image, { type: "text", text: "a" }], { inlineCap: 100, maxChars: 1000 })).toEqual({
    text: "a",
    media: [image],
  })
  expect(renderResult({ a: [1, 2] }, { inlineCap: 100, maxChars: 1000 })).toEqual({ text: '{"a":[1,2]}', media: [] })
  expect(renderResult({ a: [{ b: 1 }] }, { inlineCap: 5, maxChars: 1000 }).text).toBe(
    '{\n "a": [\n  {\n   "b": 1\n  }\n ]\n}',
  )
})
