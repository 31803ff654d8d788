/**
 * The thread a search of stored output runs in (./grep-runner.ts): core's `grepOutput`, one job at a time. A job
 * arrives as its text's pages, in order, then its pattern; the text is joined here, not on the main thread.
 * Bundled into dist/grep-worker.mjs by `pnpm build`, since a worker thread loads plain JavaScript only.
 */
import { parentPort } from "node:worker_threads"
import { grepOutput } from "@switchboard/core/grep"

/** one page of job `id`'s text (the first page of a new id starts its text), or its pattern once every page is in */
export type GrepMessage = { id: number; page: string } | { id: number; pattern: string }

// RE2's first search in a thread compiles its own code: paid at load, outside any search's clock
grepOutput("warm", "w+")

let job: { id: number; pages: string[] } | undefined

parentPort?.on("message", (message: GrepMessage) => {
  if (job?.id !== message.id) job = { id: message.id, pages: [] }
  if ("page" in message) return void job.pages.push(message.page)
  const text = job.pages.join("")
  job = undefined
  // the runner's clock starts here, not when it posted: a new thread first loads this bundle
  parentPort?.postMessage({ id: message.id, started: true })
  parentPort?.postMessage({ id: message.id, outcome: grepOutput(text, message.pattern) })
})
