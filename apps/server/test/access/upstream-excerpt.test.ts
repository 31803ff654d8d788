/**
 * ARCHITECTURE.md: safety end to end: an http source pointed at an internal service does not read it back. Whatever the
 * upstream answers, an add, a sync, a stored sync error and a tool call's error carry at most a short excerpt
 * of its response, never the secret further down the page.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startSwitchableHttpServer } from "@switchboard/fixtures"
import type { SwitchableHttpServer } from "@switchboard/fixtures"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const SECRET = "INTERNAL-SECRET-42"
const INTERNAL_PAGE = `<html><body>${"lorem ipsum ".repeat(30)}<pre>${SECRET}</pre></body></html>`

const { logger, lines } = memoryLogger()
let server: TestServer
let internal: SwitchableHttpServer
beforeAll(async () => {
  server = await startTestServer({ logger })
  internal = await startSwitchableHttpServer({ mode: { kind: "error", status: 500, body: INTERNAL_PAGE } })
})
afterAll(async () => {
  await server?.stop()
  await internal?.close()
})

const source = (namespace: string) => ({
  namespace,
  kind: "mcp",
  transport: { type: "http", url: internal.url, headers: {} },
})

it("adding a source whose upstream answers 500 with a page: 502 with the status and an excerpt, not the page", async () => {
  const added = await server.request("POST", "/v1/sources", source("probe"))
  expect(added.status).toBe(502)
  expect(added.body.error.code).toBe("upstream_failed")
  expect(added.body.error.message).toMatch(/HTTP 500: <html><body>lorem ipsum/)
  expect(added.body.error.message).toMatch(/cut to 120 characters/)
  expect(JSON.stringify(added.body)).not.toContain(SECRET)
})

it("a source that starts answering with the page: the sync, the stored sync error and a call carry no more than the excerpt", async () => {
  internal.mode = { kind: "mcp" }
  expect((await server.request("POST", "/v1/sources", source("internal"))).status).toBe(201)
  internal.mode = { kind: "error", status: 500, body: INTERNAL_PAGE }
  const run = await server.execute("return await tools.internal.ping({})")
  expect(run.result).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } })
  expect(JSON.stringify(run)).not.toContain(SECRET)
  const synced = await server.request("POST", "/v1/sources/internal/sync")
  expect(synced.status).toBe(502)
  expect(JSON.stringify(synced.body)).not.toContain(SECRET)
  const listed = await server.request("GET", "/v1/sources")
  expect(listed.body.sources.find((s: { namespace: string }) => s.namespace === "internal").syncError).toMatch(
    /HTTP 500/,
  )
  expect(JSON.stringify(listed.body)).not.toContain(SECRET)
  expect(JSON.stringify(lines)).not.toContain(SECRET)
})
