/** ARCHITECTURE.md: safety: beyond loopback (or with --require-key) every route but /healthz and /readyz needs a live API key. */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ requireKey: true })
})
afterAll(() => server?.stop())

const get = (path: string, key?: string) =>
  fetch(server.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} })

it("health answers without a key; every other route is 401 until a live key is sent", async () => {
  expect((await get("/healthz")).status).toBe(200)
  for (const path of ["/v1/sources", "/v1/tools", "/v1/executions/x"]) {
    const response = await get(path)
    expect(response.status, path).toBe(401)
    expect(response.headers.get("www-authenticate")).toMatch(/Bearer/)
    expect(((await response.json()) as any).error).toMatchObject({
      code: "unauthorized",
      // true on every host (an admin key over HTTP), then this host's own way: its command line
      message: expect.stringMatching(/POST \/v1\/keys\. On the host: `switchboard keys create <name> --scope <scope>`/),
    })
  }
  expect((await fetch(`${server.url}/mcp`, { method: "POST", body: "{}" })).status).toBe(401)

  const { key, id } = await server.host.keys.create("test", ["admin"])
  expect((await get("/v1/sources", key)).status).toBe(200)
  expect((await get("/v1/sources", `${key}x`)).status).toBe(401)
  const execute = await fetch(`${server.url}/v1/execute`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ code: "return 1" }),
  })
  expect(((await execute.json()) as any).result).toBe(1)

  await server.host.keys.revoke(id)
  expect((await get("/v1/sources", key)).status).toBe(401)
})

it("a loopback server without --require-key answers without a key", async () => {
  const open = await startTestServer()
  try {
    expect((await fetch(`${open.url}/v1/sources`)).status).toBe(200)
  } finally {
    await open.stop()
  }
})
