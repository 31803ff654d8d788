/**
 * A download's stream (src/output-stream.ts) when its client goes away while a page is being read: the download
 * ends quietly, with its place given back once; only a read that failed for its own reasons is reported. The pages
 * come from a stand-in whose reads the test settles, so the order of events is certain.
 */
import { expect, it } from "vitest"
import { outputStream } from "../src/output-stream.js"

it("a client gone while a page is read: the download ends without a failure reported, its place given back", async () => {
  let settle: (text: string) => void = () => {}
  let reading: () => void = () => {}
  const readStarted = new Promise<void>((resolve) => (reading = resolve))
  const read = () => {
    reading()
    return new Promise<string>((resolve) => (settle = resolve))
  }
  const ended = { done: 0, failed: [] as unknown[] }
  const stream = outputStream(
    { bytes: 6, pages: 2, read },
    { done: () => ended.done++, failed: (cause) => ended.failed.push(cause) },
  )
  const reader = stream.getReader()
  const first = reader.read()
  // the page is being read; the client hangs up
  await readStarted
  await reader.cancel()
  settle("abc")
  await first.catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(ended).toEqual({ done: 1, failed: [] })
})

it("a read that fails is reported, and the download ends", async () => {
  const output = { bytes: 6, pages: 2, read: () => Promise.reject(new Error("the database is gone")) }
  const ended = { done: 0, failed: [] as unknown[] }
  const reader = outputStream(output, {
    done: () => ended.done++,
    failed: (cause) => ended.failed.push(cause),
  }).getReader()
  await expect(reader.read()).rejects.toThrow("the database is gone")
  expect(ended.done).toBe(1)
  expect(ended.failed.map(String)).toEqual(["Error: the database is gone"])
})
