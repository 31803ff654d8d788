/**
 * Fairness over real HTTP: scripts run in the worker pool, so a hostile script holds one worker and
 * nothing else. Order is asserted, never timings.
 */
import type { WorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"
import { afterEach, describe, expect, test } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const poolOf = (running: TestServer) => running.host.runtime as WorkerPoolRuntime

const waitFor = async (condition: () => boolean) => {
  for (let tries = 0; tries < 500 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(condition()).toBe(true)
}

describe("fairness", () => {
  test("while a hostile script runs, /healthz and other executions answer first", async () => {
    server = await startTestServer({ workers: 2 })
    const finished: string[] = []
    const hostile = server
      .request("POST", "/v1/execute", { code: "while (true) {}", timeoutMs: 3_000 })
      .then((response) => {
        finished.push("hostile")
        return response
      })
    await waitFor(() => poolOf(server!).stats().busy === 1)
    const health = await server.request("GET", "/healthz")
    finished.push("healthz")
    const trivial = await server.execute("return 1")
    finished.push("execute")
    expect(health.status).toBe(200)
    expect(trivial).toMatchObject({ ok: true, result: 1 })
    const { body } = await hostile
    expect(body.error.code).toBe("timeout")
    expect(finished).toEqual(["healthz", "execute", "hostile"])
  })

  test("past the queue bound an execution is refused at once with 429 and Retry-After", async () => {
    server = await startTestServer({ workers: 1, queue: 1 })
    const running = server.request("POST", "/v1/execute", { code: "while (true) {}", timeoutMs: 1_500 })
    // a failed assertion stops the server under these two: they must not become unhandled rejections
    running.catch(() => {})
    await waitFor(() => poolOf(server!).stats().busy === 1)
    const queued = server.request("POST", "/v1/execute", { code: "return 'queued'" })
    queued.catch(() => {})
    await waitFor(() => poolOf(server!).stats().queued === 1)
    const refused = await server.request("POST", "/v1/execute", { code: "return 'refused'" })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(refused.body.error.code).toBe("overloaded")
    expect((await running).body.error.code).toBe("timeout")
    expect((await queued).body).toMatchObject({ ok: true, result: "queued" })
  })

  test("createHost hands the server's limits and pool size to the worker pool", async () => {
    server = await startTestServer({ workers: 3, queue: 5, limits: { memoryBytes: 32 << 20, maxToolCalls: 2 } })
    expect(poolOf(server).stats()).toMatchObject({ size: 3, idle: 3 })
    const memory = await server.execute("const a = []\nfor (;;) a.push({ a: a.length })")
    expect(memory.error).toMatchObject({ code: "memory_limit", message: expect.stringContaining(String(32 << 20)) })
    const calls = await server.execute("for (let i = 0; i < 5; i++) await tools.x.y({})")
    expect(calls.error).toMatchObject({ code: "tool_call_limit", message: expect.stringContaining("2") })
  })
})
