/**
 * A stdio source whose command floods stdout (`yes`): adding it fails at once with the cause named, and /healthz
 * answers quickly all along (ARCHITECTURE.md: safety: no request stalls the main thread). Calls to a source that floods later
 * are in packages/plugin-mcp/test/stdout-flood.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ allowStdio: true })
})
afterAll(() => server?.stop())

/** Probes /healthz every 50 ms while `work` runs; the slowest answer. */
const slowestHealthz = async <A>(work: () => Promise<A>) => {
  let slowest = 0
  let running = true
  const probing = (async () => {
    while (running) {
      const started = performance.now()
      await fetch(server.url + "/healthz").then((r) => r.arrayBuffer())
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  try {
    return { value: await work(), slowest }
  } finally {
    running = false
    await probing
  }
}

it("adding `yes` as a source fails fast naming the cause, and /healthz stays quick", async () => {
  const started = performance.now()
  const { value: added, slowest } = await slowestHealthz(() =>
    server.request("POST", "/v1/sources", {
      namespace: "yes",
      kind: "mcp",
      transport: { type: "stdio", command: "yes" },
    }),
  )
  expect(added.status).toBe(502)
  // the server misbehaved (it is there, and broke a bound): upstream_error, as a call to it says
  expect(added.body.error.code).toBe("upstream_error")
  expect(added.body.error.message).toMatch(/lines that are not JSON-RPC/)
  expect(performance.now() - started).toBeLessThan(10_000) // not the 30 s connect timeout
  expect(slowest).toBeLessThan(1_000)
}, 30_000)
