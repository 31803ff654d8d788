/**
 * Searches of stored output, off the main thread and bounded in time. RE2 cannot be given a step budget, and
 * a pattern such as `(?:a?){1000}a{1000}$` costs seconds over 100 KB, which the main thread cannot spare. Here
 * one worker thread runs one search at a time; a search still running `timeoutMs` after it started has its
 * thread terminated and answers `pattern_too_costly`, and the next search gets a new thread. The clock starts
 * when the thread says it started, so the time a new thread takes to load (hundreds of ms on a busy machine)
 * never makes a cheap search "too costly"; a thread that never starts is given up after `startGraceMs`. Searches wait in
 * a queue of at most `queueLimit`; past it a search answers `overloaded`.
 *
 * The text is read only when its search has its turn, a page at a time, each page handed to the thread as it is read:
 * a search that read its whole text before taking its place in the queue would let many searches of a large output
 * copy it on the main thread at once, past the queue's limit.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import type * as Render from "@switchboard/core/render"
import { grepWorkerFile } from "../build-outputs.js"
import type { GrepMessage } from "./grep-worker.js"

export interface GrepRunnerOptions {
  /** the longest one search may run (default 2 s) */
  timeoutMs?: number
  /** searches waiting behind the running one (default 16) */
  queueLimit?: number
  /** how long a new thread may take to load before its search is given up as `overloaded` (default 10 s) */
  startGraceMs?: number
}

interface Pending {
  id: number
  output: Render.OutputPages
  pattern: string
  resolve: (outcome: Render.GrepOutcome) => void
  /** a page could not be read (the execution deleted meanwhile): the search rejects as the read did */
  reject: (cause: unknown) => void
}

export const createGrepRunner = (
  options: GrepRunnerOptions = {},
): { grep: Render.GrepRunner; close: () => Promise<void> } => {
  // the bundled search thread, a build output (a worker thread loads plain JavaScript only)
  const workerUrl = grepWorkerFile()
  if (!existsSync(workerUrl))
    throw new Error(
      `the search thread's bundle ${fileURLToPath(workerUrl)} is missing. ` +
        "Build it with `pnpm build` at the repository root (bash scripts/setup does)",
    )
  const timeoutMs = options.timeoutMs ?? 2_000
  const queueLimit = options.queueLimit ?? 16
  const startGraceMs = options.startGraceMs ?? 10_000
  const queue: Pending[] = []
  let worker: Worker | null = null
  let running: { job: Pending; timer?: ReturnType<typeof setTimeout> } | null = null
  let nextId = 0
  let closed = false

  const finish = (outcome: Render.GrepOutcome) => {
    if (!running) return
    clearTimeout(running.timer)
    running.job.resolve(outcome)
    running = null
    startNext()
  }

  const tooCostly: Render.GrepOutcome = {
    ok: false,
    code: "pattern_too_costly",
    message:
      `the search ran past its limit of ${timeoutMs} ms and was stopped; ` +
      "use a simpler pattern (fewer repetitions and alternatives) or read the output by line range",
  }
  const neverStarted: Render.GrepOutcome = {
    ok: false,
    code: "overloaded",
    message: `the search thread did not start within ${startGraceMs} ms; try again shortly`,
  }

  /** (Re)starts the running search's clock: past `ms`, its thread is stopped and it answers `outcome`. */
  const startClock = (ms: number, outcome: Render.GrepOutcome) => {
    if (!running) return
    clearTimeout(running.timer)
    running.timer = setTimeout(() => {
      discardWorker()
      finish(outcome)
    }, ms)
  }

  const discardWorker = () => {
    const old = worker
    worker = null
    void old?.terminate()
  }

  const spawn = () => {
    const spawned = new Worker(workerUrl)
    spawned.unref() // an idle search thread never keeps the process alive
    spawned.on("message", ({ id, started, outcome }: { id: number; started?: true; outcome?: Render.GrepOutcome }) => {
      if (running?.job.id !== id) return
      if (started) startClock(timeoutMs, tooCostly)
      else if (outcome) finish(outcome)
    })
    spawned.on("error", () => {
      if (worker !== spawned) return
      discardWorker()
      finish({
        ok: false,
        code: "pattern_too_costly",
        message:
          "the search failed before it finished (out of memory); narrow the pattern or read the output by line range",
      })
    })
    return spawned
  }

  /** hands the running job's pages to the thread as they are read, then its pattern; the clock starts after */
  const feed = async (job: Pending) => {
    const post = (message: GrepMessage) => worker?.postMessage(message)
    try {
      for (let page = 0; page < job.output.pages; page++) {
        const text = await job.output.read(page)
        if (running?.job !== job) return
        post({ id: job.id, page: text })
      }
    } catch (cause) {
      if (running?.job !== job) return
      running = null
      job.reject(cause)
      return startNext()
    }
    if (running?.job !== job) return
    startClock(startGraceMs, neverStarted)
    post({ id: job.id, pattern: job.pattern })
  }

  const startNext = () => {
    if (running || closed) return
    const job = queue.shift()
    if (!job) return
    worker ??= spawn()
    running = { job }
    void feed(job)
  }

  return {
    grep: (output, pattern) =>
      new Promise<Render.GrepOutcome>((resolve, reject) => {
        if (closed) return resolve({ ok: false, code: "overloaded", message: "the server is shutting down" })
        if (queue.length >= queueLimit)
          return resolve({
            ok: false,
            code: "overloaded",
            message: `${queueLimit} searches are already waiting; try again shortly`,
          })
        queue.push({ id: ++nextId, output, pattern, resolve, reject })
        startNext()
      }),
    async close() {
      closed = true
      for (const job of queue.splice(0))
        job.resolve({ ok: false, code: "overloaded", message: "the server is shutting down" })
      if (running) finish({ ok: false, code: "overloaded", message: "the server is shutting down" })
      const old = worker
      worker = null
      await old?.terminate()
    },
  }
}
