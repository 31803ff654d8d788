/**
 * The thread a search of stored output runs in (./grep-runner.ts): core's `grepOutput`, one job at a time.
 * Bundled into dist/grep-worker.mjs by `pnpm build`, since a worker thread loads plain JavaScript only.
 */
import { parentPort } from "node:worker_threads"
import { grepOutput } from "@switchboard/core/grep"

export interface GrepJob {
  id: number
  text: string
  pattern: string
}

// RE2's first search in a thread compiles its own code (20-30 ms here): paid at load, outside any search's clock
grepOutput("warm", "w+")

parentPort?.on("message", ({ id, text, pattern }: GrepJob) => {
  // the runner's clock starts here, not when it posted: a new thread first loads this bundle
  parentPort?.postMessage({ id, started: true })
  parentPort?.postMessage({ id, outcome: grepOutput(text, pattern) })
})
