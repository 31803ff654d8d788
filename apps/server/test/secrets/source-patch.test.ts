/**
 * Issue 13: `PATCH /v1/sources/:namespace` replaces a source's env, headers or URL — a key rotation without
 * delete and re-add — then drops its connections and re-syncs.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { echoEnvServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const OLD = "old-token-aaaa1111"
const NEW = "new-token-bbbb2222"

const { logger, lines } = memoryLogger()
let server: TestServer
let upstream: EchoHeadersServer
beforeAll(async () => {
  upstream = await startEchoHeadersServer()
  server = await startTestServer({ allowStdio: true, logger })
  const env = { ECHO_TOKEN: OLD, ECHO_GONE: "gone-after-patch", ECHO_SHORT: "v1" }
  expect(
    (
      await server.request("POST", "/v1/sources", {
        namespace: "envs",
        kind: "mcp",
        transport: { type: "stdio", command: process.execPath, args: ["-e", echoEnvServerScript], env },
      })
    ).status,
  ).toBe(201)
  expect(
    (
      await server.request("POST", "/v1/sources", {
        namespace: "hdrs",
        kind: "mcp",
        transport: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${OLD}`, "x-team": "a" } },
      })
    ).status,
  ).toBe(201)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

it("replaces a stdio source's env whole (not merged), re-syncs, and the next call runs with the new env", async () => {
  // a connection made with the old env is open
  expect((await server.execute("return (await tools.envs.echo({})).data.env.ECHO_SHORT")).result).toBe("v1")
  const patched = await server.request("PATCH", "/v1/sources/envs", {
    transport: { env: { ECHO_TOKEN: NEW, ECHO_SHORT: "v2" } },
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  expect(patched.body.source).toMatchObject({
    namespace: "envs",
    status: "ready",
    syncError: null,
    toolCount: 3,
    config: { transport: { env: { ECHO_TOKEN: "<redacted>", ECHO_SHORT: "<redacted>" } } },
  })
  expect(JSON.stringify(patched.body)).not.toContain(NEW)
  const env = (await server.execute("return (await tools.envs.echo({})).data.env")).result
  expect(env).toEqual({ ECHO_TOKEN: "<redacted>", ECHO_SHORT: "v2" })
})

it("replaces an http source's headers; the upstream gets only the new ones", async () => {
  const patched = await server.request("PATCH", "/v1/sources/hdrs", {
    transport: { headers: { authorization: `Bearer ${NEW}` } },
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  expect(patched.body.source.config.transport.headers).toEqual({ authorization: "<redacted>" })
  const before = upstream.received.length
  expect((await server.execute("return (await tools.hdrs.echo({})).ok")).result).toBe(true)
  const sent = upstream.received.slice(before)
  expect(sent.length).toBeGreaterThan(0)
  for (const headers of sent) {
    expect(headers.authorization).toBe(`Bearer ${NEW}`)
    expect(headers["x-team"]).toBeUndefined()
  }
  expect(JSON.stringify(lines)).not.toContain(NEW)
})

it("replaces an http source's URL (its query holds the key); a re-sync that fails keeps the new config and says so", async () => {
  const dead = "http://127.0.0.1:9/mcp?api_key=k-123456789"
  const patched = await server.request("PATCH", "/v1/sources/hdrs", { transport: { url: dead } })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  expect(patched.body.source.status).toBe("error")
  expect(patched.body.source.syncError).toMatch(/could not connect/)
  expect(patched.body.source.config.transport.url).toBe("http://127.0.0.1:9/mcp?api_key=<redacted>")
  expect(JSON.stringify(patched.body)).not.toContain("k-123456789")
  const back = await server.request("PATCH", "/v1/sources/hdrs", {
    transport: { url: `${upstream.url}?api_key=k-abcdefgh` },
  })
  expect(back.body.source).toMatchObject({ status: "ready", syncError: null })
})

it("answers 404 for an unknown namespace, 400 for a bad body, and changes nothing then", async () => {
  expect((await server.request("PATCH", "/v1/sources/nope", { transport: { env: {} } })).status).toBe(404)
  const cases: [unknown, RegExp][] = [
    [[1], /JSON object/],
    [{ transport: { command: "sh" } }, /replaces only "transport\.env" or "transport\.args", not "transport\.command"/],
    [{ transport: {} }, /"transport\.env" or "transport\.args" to replace/],
    [{ namespace: "other", transport: { env: {} } }, /"transport\.env" or "transport\.args" to replace/],
    [{ transport: { env: { A: 1 } } }, /transport\.env must be an object of string values/],
  ]
  for (const [body, message] of cases) {
    const response = await server.request("PATCH", "/v1/sources/envs", body)
    expect(response.status, JSON.stringify(body)).toBe(400)
    expect(response.body.error.code).toBe("invalid_request")
    expect(response.body.error.message).toMatch(message)
  }
  expect((await server.request("PATCH", "/v1/sources/hdrs", { transport: { url: "ftp://x" } })).status).toBe(400)
  expect((await server.request("PATCH", "/v1/sources/envs", "{not json")).body.error.code).toBe("invalid_json")
  expect((await server.execute("return (await tools.envs.echo({})).data.env.ECHO_SHORT")).result).toBe("v2")
})
