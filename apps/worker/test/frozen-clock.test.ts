/**
 * Deployed Workers freeze Date.now() and performance.now() while a script computes; local workerd does not, so a
 * test Worker freezes them itself (test/workers/frozen-clock.ts). A deadline read from the clock would never fire
 * there; the interrupt-call budget must end the script with `timeout`.
 */
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { bundleTestWorker } from "./bundle-test-worker.js"
import { startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

let worker: RunningWorker
beforeAll(async () => {
  const script = await bundleTestWorker(fileURLToPath(new URL("./workers/frozen-clock.ts", import.meta.url)))
  worker = await startWorker({ scriptPath: script })
})
afterAll(() => worker?.close())

const run = async (query: string) => {
  const started = performance.now()
  const body = (await (await fetch(`${worker.url}/?${query}`)).json()) as {
    outcome: { ok: boolean; error?: { code: string; message: string } }
    clockMoved: boolean
  }
  return { ...body, ms: performance.now() - started }
}

describe("in workerd, with the clock frozen", () => {
  test("while (true) {} with a 200 ms deadline ends with timeout, in a fresh isolate (the budget's floor)", async () => {
    const { outcome, clockMoved, ms } = await run("timeoutMs=200")
    expect(clockMoved).toBe(false)
    expect(outcome.ok).toBe(false)
    expect(outcome.error?.code).toBe("timeout")
    expect(outcome.error?.message).toContain("200 ms")
    console.log(`workerd, frozen clock, fresh budget: while(true) with 200 ms ended after ${ms.toFixed(0)} ms`)
  })

  test("and after a run with a moving clock has calibrated the budget", async () => {
    const { outcome, ms } = await run("timeoutMs=200&warm=1")
    expect(outcome.error?.code).toBe("timeout")
    console.log(`workerd, frozen clock, calibrated budget: while(true) with 200 ms ended after ${ms.toFixed(0)} ms`)
  })

  test("a loop that catches the interrupt is still stopped", async () => {
    const { outcome } = await run(
      `timeoutMs=200&code=${encodeURIComponent("for (;;) { try { while (true) {} } catch {} }")}`,
    )
    expect(outcome.error?.code).toBe("timeout")
  })

  test("a script that finishes is unaffected", async () => {
    const { outcome } = await run(
      `code=${encodeURIComponent("let n = 0; for (let i = 0; i < 1000; i++) n += i; return n")}`,
    )
    expect(outcome).toMatchObject({ ok: true, value: 499500 })
  })
})
