/**
 * startWorkerPoolRuntime: the pool at once, its workers loading meanwhile (a server listens while they do). A run
 * made before any worker is ready waits in the queue and runs; a pool whose worker bundle is missing rejects
 * `started`, naming the file, and a run made meanwhile ends at once.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
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

test("a worker bundle that is not there rejects `started` with its path, and a run made meanwhile ends at once, not at its deadline", async () => {
  const workerFile = new URL("../dist/no-such-worker.mjs", import.meta.url)
  expect(existsSync(workerFile)).toBe(false)
  const pool = startWorkerPoolRuntime({ size: 1, workerFile })
  const early = runWith(pool, "return 1", { limits: { timeoutMs: 20_000 } })
  await expect(pool.started).rejects.toThrow(fileURLToPath(workerFile))
  const before = performance.now()
  // the pool closed as it failed: the run was refused (internal_error) or, had it been queued first, aborted
  expect(["internal_error", "aborted"]).toContain(expectError(await early).code)
  expect(performance.now() - before).toBeLessThan(1_000)
}, 30_000)
