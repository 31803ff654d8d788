/**
 * A sync's progress through the sources service: every page reaches whoever follows the sync (`add` and `sync` with
 * `onProgress`, a caller joining a running sync from then on), and the log hears of a sync only once it has run a
 * second, then every second, and when it has read every page. Time is the service's clock, moved by the plugin.
 */
import { Effect } from "effect"
import { afterEach, beforeEach, expect, it } from "vitest"
import { createSourcesService } from "../src/sources/sources-service.js"
import type { DiscoveryProgress, Logger, SourcePlugin } from "../src/index.js"
import { openSqliteStore } from "./sqlite-store.js"

let opened: ReturnType<typeof openSqliteStore>
beforeEach(() => {
  opened = openSqliteStore()
})
afterEach(() => opened.close())

interface Listing {
  pages: number
  msPerPage: number
  /** what page 3 of a listing waits for, asked at each listing */
  hold?: () => Promise<void> | undefined
}

/** A plugin whose listing has `pages` pages of 10 tools, each read in `msPerPage` of the clock. */
const pagingPlugin = (clock: { now: number }, options: Listing) =>
  ({
    kind: "paged",
    validateConfig: (config: unknown) => ({ ok: true as const, config }),
    redactConfig: (config: unknown) => config,
    release: async () => {},
    discover: async (_source, discover) => {
      const tools = []
      for (let page = 1; page <= options.pages; page++) {
        if (page === 3) await options.hold?.()
        clock.now += options.msPerPage
        for (let i = 0; i < 10; i++)
          tools.push({
            name: `t${tools.length}`,
            description: null,
            inputSchema: {},
            outputSchema: null,
            annotations: null,
          })
        discover?.onProgress?.({ pages: page, tools: tools.length })
      }
      return { ok: true as const, discovery: { tools, encoding: "direct" } }
    },
  }) as Partial<SourcePlugin> as SourcePlugin

const setup = (options: Listing) => {
  const clock = { now: 1_000_000 }
  const reads = { sources: 0 }
  const store = {
    ...opened.store,
    getSource: (namespace: string) => (reads.sources++, opened.store.getSource(namespace)),
  }
  const lines: { message: string; details?: Record<string, unknown> }[] = []
  const logger: Logger = {
    error: () => {},
    warn: () => {},
    info: (message, details) => void lines.push({ message, details }),
  }
  const sources = createSourcesService({
    store,
    plugins: [pagingPlugin(clock, options)],
    logger,
    now: () => clock.now,
  })
  return { sources, lines, reads }
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  // and a turn for what follows what was awaited
  await new Promise((resolve) => setImmediate(resolve))
}

const follower = () => {
  const heard: DiscoveryProgress[] = []
  return { heard, onProgress: (progress: DiscoveryProgress) => void heard.push(progress) }
}

it("add hands every page to its follower; the log hears of it after a second, then every second, then at the end", async () => {
  const { sources, lines } = setup({ pages: 30, msPerPage: 300 })
  const { heard, onProgress } = follower()
  const view = await Effect.runPromise(sources.add({ namespace: "big", kind: "paged" }, { onProgress }))
  expect(view.toolCount).toBe(300)
  expect(heard).toEqual(Array.from({ length: 30 }, (_, i) => ({ pages: i + 1, tools: 10 * (i + 1) })))
  // pages at 300 ms each: a line at 1.2 s (page 4), then 1.2 s after each line (page 7 is only 0.9 s after)
  expect(lines).toEqual([
    ...[4, 8, 12, 16, 20, 24, 28].map((pages) => ({
      message: "sync progress",
      details: { namespace: "big", pages, tools: pages * 10 },
    })),
    { message: "sync read every page", details: { namespace: "big", pages: 30, tools: 300, ms: 9_000 } },
  ])
})

it("a quick sync logs nothing, however many pages; one page is never progress", async () => {
  const quick = setup({ pages: 50, msPerPage: 10 })
  await Effect.runPromise(quick.sources.add({ namespace: "quick", kind: "paged" }))
  expect(quick.lines).toEqual([])
  const slowSingle = setup({ pages: 1, msPerPage: 5_000 })
  await Effect.runPromise(slowSingle.sources.add({ namespace: "single", kind: "paged" }))
  expect(slowSingle.lines).toEqual([])
})

it("sync hands its pages to each follower: one that joins a running sync hears the pages after it joined", async () => {
  let held: Promise<void> | undefined
  let release = () => {}
  const { sources, reads } = setup({ pages: 5, msPerPage: 0, hold: () => held })
  await Effect.runPromise(sources.add({ namespace: "q", kind: "paged" }))
  held = new Promise<void>((resolve) => (release = resolve))
  const first = follower()
  const late = follower()
  const failing = () => {
    throw new Error("the terminal went away")
  }
  const running = Effect.runPromise(sources.sync("q", { onProgress: first.onProgress }))
  await until(() => first.heard.length === 2)
  // the listing waits at page 3: these join the running sync, once each has read its source
  const before = reads.sources
  const joined = Effect.runPromise(sources.sync("q", { onProgress: late.onProgress }))
  const joinedFailing = Effect.runPromise(sources.sync("q", { onProgress: failing }))
  await until(() => reads.sources === before + 2)
  release()
  for (const view of await Promise.all([running, joined, joinedFailing])) expect(view.toolCount).toBe(50)
  expect(first.heard.map((p) => p.pages)).toEqual([1, 2, 3, 4, 5])
  expect(late.heard.map((p) => p.pages)).toEqual([3, 4, 5])
})

it("a caller joining a sync started with no follower hears the pages after it joined", async () => {
  let held: Promise<void> | undefined
  let release = () => {}
  let waiting = false
  const { sources, reads } = setup({ pages: 5, msPerPage: 0, hold: () => ((waiting = held !== undefined), held) })
  await Effect.runPromise(sources.add({ namespace: "q", kind: "paged" }))
  held = new Promise<void>((resolve) => (release = resolve))
  const late = follower()
  // a sync nobody follows (as a lazy re-sync is), waiting at page 3
  const unfollowed = Effect.runPromise(sources.sync("q"))
  await until(() => waiting)
  const before = reads.sources
  const joined = Effect.runPromise(sources.sync("q", { onProgress: late.onProgress }))
  await until(() => reads.sources === before + 1)
  release()
  for (const view of await Promise.all([unfollowed, joined])) expect(view.toolCount).toBe(50)
  expect(late.heard.map((p) => p.pages)).toEqual([3, 4, 5])
})
