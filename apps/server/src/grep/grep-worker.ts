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

parentPort?.on("message", ({ id, text, pattern }: GrepJob) => {
  parentPort?.postMessage({ id, outcome: grepOutput(text, pattern) })
})
