import * as Catalog from "@switchboard/core/catalog"
import type * as Render from "@switchboard/core/render"
import { NotFound } from "@switchboard/core"
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
  expect(await grep(Catalog.textPages("one\ntwo\nthree"), "^t")).toEqual({
    ok: true,
    matches: [
      { line: 1, text: "two" },
      { line: 2, text: "three" },
    ],
    totalLines: 3,
    truncated: false,
  })
  expect(await grep(Catalog.textPages("x"), "(")).toMatchObject({ ok: false, code: "invalid_pattern" })
})

it("a pattern that runs past the limit is stopped and answers pattern_too_costly, and the event loop stays free meanwhile", async () => {
  const { grep } = runner({ timeoutMs: 300 })
  let ticks = 0
  const ticker = setInterval(() => ticks++, 10)
  const outcome = await grep(Catalog.textPages(aLines(100)), costly)
  clearInterval(ticker)
  expect(outcome).toMatchObject({ ok: false, code: "pattern_too_costly" })
  expect((outcome as { message: string }).message).toContain("300 ms")
  expect(ticks).toBeGreaterThan(5) // the main thread kept turning while the search ran
  // the next search gets a fresh thread and answers
  expect(await grep(Catalog.textPages("a\nb"), "b")).toMatchObject({ ok: true, matches: [{ line: 1, text: "b" }] })
})

it("searches queue behind one another, and past the queue limit answer overloaded", async () => {
  const { grep } = runner({ timeoutMs: 200, queueLimit: 2 })
  const first = grep(Catalog.textPages(aLines(50)), costly)
  const queued = [grep(Catalog.textPages("a"), "a"), grep(Catalog.textPages("b"), "b")]
  expect(await grep(Catalog.textPages("c"), "c")).toMatchObject({ ok: false, code: "overloaded" })
  expect(await first).toMatchObject({ ok: false, code: "pattern_too_costly" })
  expect(await Promise.all(queued)).toMatchObject([{ ok: true }, { ok: true }])
})

it("the limit counts the search, not the time a new thread takes to load: a cheap search under a 50 ms limit answers", async () => {
  const { grep } = runner({ timeoutMs: 50 })
  expect(await grep(Catalog.textPages("a\nb"), "b")).toMatchObject({ ok: true, matches: [{ line: 1, text: "b" }] })
})

/** a text in pages, counting the reads */
const paged = (pages: string[]) => {
  const reads: number[] = []
  const output: Render.OutputPages = {
    bytes: new TextEncoder().encode(pages.join("")).length,
    pages: pages.length,
    read: async (page) => (reads.push(page), pages[page]!),
  }
  return { output, reads }
}

it("joins the pages in the thread: lines that cross a page's end are found whole, with their numbers", async () => {
  const { grep } = runner()
  const { output, reads } = paged(["zero\non", "e\ntw", "o\nthree"])
  expect(await grep(output, "^(one|two)$")).toMatchObject({
    ok: true,
    matches: [
      { line: 1, text: "one" },
      { line: 2, text: "two" },
    ],
    totalLines: 4,
  })
  expect(reads).toEqual([0, 1, 2])
})

it("the queue's limit applies before the text is read: a search past it reads no page", async () => {
  const { grep } = runner({ timeoutMs: 200, queueLimit: 1 })
  const running = grep(Catalog.textPages(aLines(50)), costly)
  const queued = paged(["a\nb"])
  const waiting = grep(queued.output, "b")
  const refused = paged(["c"])
  expect(await grep(refused.output, "c")).toMatchObject({ ok: false, code: "overloaded" })
  expect(refused.reads).toEqual([])
  // a queued search reads nothing until its turn
  expect(queued.reads).toEqual([])
  expect(await running).toMatchObject({ ok: false, code: "pattern_too_costly" })
  expect(await waiting).toMatchObject({ ok: true, matches: [{ line: 1, text: "b" }] })
  expect(queued.reads).toEqual([0])
})

it("a page that cannot be read rejects its search as the read did, and the next search runs", async () => {
  const { grep } = runner()
  const gone: Render.OutputPages = {
    bytes: 10,
    pages: 2,
    read: async (page) => {
      if (page === 1) throw new NotFound({ message: "deleted meanwhile" })
      return "a\n"
    },
  }
  await expect(grep(gone, "a")).rejects.toMatchObject({ _tag: "NotFound", message: "deleted meanwhile" })
  expect(await grep(Catalog.textPages("x\ny"), "y")).toMatchObject({ ok: true, matches: [{ line: 1, text: "y" }] })
})
