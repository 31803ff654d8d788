import { afterEach, expect, it } from "vitest"
import { createGrepRunner } from "./grep-runner.js"

const runners: ReturnType<typeof createGrepRunner>[] = []
const runner = (options?: Parameters<typeof createGrepRunner>[0]) => {
  const made = createGrepRunner(options)
  runners.push(made)
  return made
}
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()))
})

const costly = "(?:a?){1000}a{1000}$"
const aLines = (count: number) => Array.from({ length: count }, () => "a".repeat(1_000) + "b").join("\n")

it("answers matches with their line numbers, in a worker thread", async () => {
  const { grep } = runner()
  expect(await grep("one\ntwo\nthree", "^t")).toEqual({
    ok: true,
    matches: [
      { line: 1, text: "two" },
      { line: 2, text: "three" },
    ],
    totalLines: 3,
    truncated: false,
  })
  expect(await grep("x", "(")).toMatchObject({ ok: false, code: "invalid_pattern" })
})

it("a pattern that runs past the limit is stopped and answers pattern_too_costly, and the event loop stays free meanwhile", async () => {
  const { grep } = runner({ timeoutMs: 300 })
  let ticks = 0
  const ticker = setInterval(() => ticks++, 10)
  const outcome = await grep(aLines(100), costly)
  clearInterval(ticker)
  expect(outcome).toMatchObject({ ok: false, code: "pattern_too_costly" })
  expect((outcome as { message: string }).message).toContain("300 ms")
  expect(ticks).toBeGreaterThan(5) // the main thread kept turning while the search ran
  // the next search gets a fresh thread and answers
  expect(await grep("a\nb", "b")).toMatchObject({ ok: true, matches: [{ line: 1, text: "b" }] })
})

it("searches queue behind one another, and past the queue limit answer overloaded", async () => {
  const { grep } = runner({ timeoutMs: 200, queueLimit: 2 })
  const first = grep(aLines(50), costly)
  const queued = [grep("a", "a"), grep("b", "b")]
  expect(await grep("c", "c")).toMatchObject({ ok: false, code: "overloaded" })
  expect(await first).toMatchObject({ ok: false, code: "pattern_too_costly" })
  expect(await Promise.all(queued)).toMatchObject([{ ok: true }, { ok: true }])
})

it("the limit counts the search, not the time a new thread takes to load: a cheap search under a 50 ms limit answers", async () => {
  const { grep } = runner({ timeoutMs: 50 })
  expect(await grep("a\nb", "b")).toMatchObject({ ok: true, matches: [{ line: 1, text: "b" }] })
})
