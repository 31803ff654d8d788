/**
 * startWorkerPoolRuntime: the pool at once, its workers loading meanwhile (a server listens while they do). A run
 * made before any worker is ready waits in the queue and runs; a pool whose worker bundle is missing rejects
 * `started`, naming the file, and a run made meanwhile is refused at once; one whose bundle throws as it loads
 * rejects `started` too, and a run queued meanwhile ends `aborted` at once.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { expect, test } from "vitest"
import { startWorkerPoolRuntime } from "../src/node/index.js"
import { expectError, expectValue, runWith } from "./helpers.js"

test("a run made while the workers load waits for the first and runs; `started` resolves once all have loaded", async () => {
  const pool = startWorkerPoolRuntime({ size: 2 })
  try {
    expect(pool.stats()).toMatchObject({ size: 2, idle: 0, starting: 2 })
    const early = runWith(pool, "return 1 + 1")
    await pool.started
    expect(pool.stats()).toMatchObject({ starting: 0 })
    expect(expectValue(await early)).toBe(2)
  } finally {
    await pool.close()
  }
}, 30_000)

test("a worker bundle that is not there rejects `started` with its path, and a run made meanwhile is refused at once: the pool is closed already", async () => {
  const workerFile = new URL("../dist/no-such-worker.mjs", import.meta.url)
  expect(existsSync(workerFile)).toBe(false)
  const pool = startWorkerPoolRuntime({ size: 1, workerFile })
  const early = runWith(pool, "return 1", { limits: { timeoutMs: 20_000 } })
  await expect(pool.started).rejects.toThrow(fileURLToPath(workerFile))
  const before = performance.now()
  // start() finds the bundle missing and closes the pool before startWorkerPoolRuntime returns: the run is refused
  expect(expectError(await early)).toMatchObject({
    code: "internal_error",
    message: "the sandbox failed: the worker pool is closed",
  })
  expect(performance.now() - before).toBeLessThan(1_000)
}, 30_000)

test("a worker bundle that throws as it loads rejects `started`, and a run queued meanwhile ends aborted at once, not at its deadline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pool-start-"))
  try {
    const workerFile = pathToFileURL(join(dir, "throwing-worker.mjs"))
    writeFileSync(workerFile, 'throw new Error("this worker bundle is broken")\n')
    const pool = startWorkerPoolRuntime({ size: 1, workerFile })
    // the file is there: the run is queued for the worker that is loading
    expect(pool.stats()).toMatchObject({ starting: 1 })
    const early = runWith(pool, "return 1", { limits: { timeoutMs: 20_000 } })
    expect(pool.stats()).toMatchObject({ queued: 1 })
    await expect(pool.started).rejects.toThrow("this worker bundle is broken")
    const before = performance.now()
    // the pool closed as it failed, and runs waiting end as `aborted` (startWorkerPoolRuntime's documentation)
    expect(expectError(await early).code).toBe("aborted")
    expect(performance.now() - before).toBeLessThan(1_000)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
