/**
 * The pool renders a result for the caller off the main thread (RunOptions.render): with core's own
 * renderResult, so the text is what the executor would have made on the main thread. A short text without
 * media is not posted: the caller makes it for less than receiving it costs.
 */
import * as Render from "@switchboard/core/render"
import { afterAll, beforeAll, expect, test } from "vitest"
import { createWorkerPoolRuntime } from "../src/node/index.js"
import type { WorkerPoolRuntime } from "../src/node/index.js"
import { noTools, testLimits } from "./helpers.js"

let pool: WorkerPoolRuntime
beforeAll(async () => {
  pool = await createWorkerPoolRuntime({ size: 1 })
})
afterAll(() => pool.close())

const render: Render.RenderOptions = { inlineCap: 100, maxChars: 1 << 20 }
const run = (code: string, options: { render?: Render.RenderOptions } = { render }) =>
  pool.run(code, { invoke: noTools, limits: { ...testLimits, maxResultBytes: 1 << 20 }, ...options })

test.each([
  ["a value past the inline cap, laid out", "return { rows: Array.from({ length: 300 }, (_, i) => ({ i })) }"],
  ["a long string with a lone surrogate", "return 'x'.repeat(3000) + '\\uD800y'"],
  ["a value nested past the indentation depth", "let v = [1]; for (let i = 0; i < 300; i++) v = [v, { i }]; return v"],
  [
    "media blocks beside text",
    "return [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: 'hi' }]",
  ],
])("%s is rendered by the worker as core renders it", async (_name, code) => {
  const outcome = await run(code)
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  expect(outcome.rendered).toBeDefined()
  const { json, ...rendered } = outcome.rendered!
  const { json: madeJson, ...made } = Render.renderResult(outcome.value, render)
  expect(rendered).toEqual(made)
  // an object or array also comes as its JSON (made with the text, or apart when media was taken out)
  if (typeof outcome.value === "object") expect(json).toBe(madeJson ?? JSON.stringify(outcome.value))
  else expect(json).toBeUndefined()
})

test("a large object comes as its JSON text, and the value is parsed from it only when read", async () => {
  const outcome = await run("return { rows: Array.from({ length: 300 }, (_, i) => ({ i })) }")
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  expect(Object.getOwnPropertyDescriptor(outcome, "value")?.get).toBeTypeOf("function")
  expect(outcome.rendered?.json).toBe(JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => ({ i })) }))
  expect(outcome.value).toEqual({ rows: Array.from({ length: 300 }, (_, i) => ({ i })) })
})

test.each([
  ["a small value", "return { a: 1, b: [1, 2] }"],
  ["undefined", "return undefined"],
])("%s, whose text is short, is left to the caller to render", async (_name, code) => {
  const outcome = await run(code)
  expect(outcome.ok && outcome.rendered).toBeUndefined()
})

test("without render options nothing is rendered, and a failed run carries no rendering", async () => {
  const plain = await run("return 1", {})
  expect(plain.ok && plain.rendered).toBeUndefined()
  const failed = await run("throw new Error('no')")
  expect(failed).not.toHaveProperty("rendered")
})
