/**
 * ARCHITECTURE.md: safety end to end: a server that listens beyond loopback refuses http sources at loopback, private,
 * link-local and metadata addresses, after DNS resolution and on every redirect, unless started with
 * --allow-private-sources. Every request here stays on this machine: the "internal service" is a fixture on
 * 127.0.0.1, and where a hop must look public the test injects a resolver and classifier that call 127.0.0.2
 * public (a fixture listens there); 127.0.0.1 stays loopback to the real classifier.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSwitchableHttpServer } from "@switchboard/fixtures"
import type { SwitchableHttpServer } from "@switchboard/fixtures"
import { classifyAddress } from "@switchboard/plugin-mcp"
import { memoryLogger, startTestServer, tempDir } from "../support/helpers.js"
import { startServer } from "../../src/serving/serve.js"

let internal: SwitchableHttpServer
beforeAll(async () => {
  internal = await startSwitchableHttpServer()
})
afterAll(() => internal?.close())

const httpSource = (namespace: string, url: string) => ({
  namespace,
  kind: "mcp",
  transport: { type: "http", url, headers: {} },
})

/** A server on 0.0.0.0 (it needs a key there), reached on 127.0.0.1. */
const startWideServer = async (extra: { allowPrivateSources?: boolean } = {}) => {
  const dir = tempDir()
  const server = await startServer({
    db: join(dir.dir, "catalog.db"),
    port: 0,
    hostname: "0.0.0.0",
    runtime: "in-thread",
    logger: memoryLogger().logger,
    ...extra,
  })
  const { key } = await server.host.keys.create("test", ["admin"])
  const base = server.url.replace("0.0.0.0", "127.0.0.1")
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  return { server, request, stop: async () => (await server.close(), dir.remove()) }
}

describe("a server listening on 0.0.0.0", () => {
  let wide: Awaited<ReturnType<typeof startWideServer>>
  beforeAll(async () => {
    wide = await startWideServer()
  })
  afterAll(() => wide?.stop())

  it.each([
    ["127.0.0.1", () => internal.url],
    ["localhost", () => internal.url.replace("127.0.0.1", "localhost")],
    ["[::ffff:127.0.0.1]", () => internal.url.replace("127.0.0.1", "[::ffff:127.0.0.1]")],
    ["169.254.169.254 (metadata)", () => "http://169.254.169.254/latest/meta-data/"],
    ["10.1.2.3", () => "http://10.1.2.3:8080/mcp"],
  ])("refuses adding an http source at %s: 403 private_address, and nothing reaches it", async (_, url) => {
    internal.hits = 0
    const added = await wide.request("POST", "/v1/sources", httpSource("internal", url()))
    expect(added.status).toBe(403)
    expect(added.body.error.code).toBe("private_address")
    expect(added.body.error.message).toMatch(/--allow-private-sources/)
    expect(internal.hits).toBe(0)
    expect((await wide.request("GET", "/v1/sources")).body.sources).toEqual([])
  })
})

it("with --allow-private-sources, a server on 0.0.0.0 adds and calls it", async () => {
  const wide = await startWideServer({ allowPrivateSources: true })
  try {
    const added = await wide.request("POST", "/v1/sources", httpSource("internal", internal.url))
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const run = await wide.request("POST", "/v1/execute", { code: "return (await tools.internal.ping({})).data" })
    expect(run.body).toMatchObject({ ok: true, result: "pong" })
  } finally {
    await wide.stop()
  }
})

it("a source added through a loopback server is refused on a refusing server sharing the catalog: a call is ok: false private_address", async () => {
  const dir = tempDir()
  const dbPath = join(dir.dir, "catalog.db")
  try {
    const loopback = await startTestServer({ dbPath })
    expect((await loopback.request("POST", "/v1/sources", httpSource("internal", internal.url))).status).toBe(201)
    await loopback.stop()
    internal.hits = 0
    // the option as the server sets it for --host 0.0.0.0, on a loopback listener so the test needs no key
    const refusing = await startTestServer({ dbPath, refusePrivateSources: true })
    try {
      const run = await refusing.execute("return await tools.internal.ping({})")
      expect(run.result).toMatchObject({ ok: false, error: { code: "private_address" } })
      const synced = await refusing.request("POST", "/v1/sources/internal/sync")
      expect(synced.status).toBe(403)
      expect(synced.body.error.code).toBe("private_address")
      expect(internal.hits).toBe(0)
    } finally {
      await refusing.stop()
    }
  } finally {
    dir.remove()
  }
})

describe("redirects and re-resolution (a simulated public address, injected)", () => {
  const PRETEND_PUBLIC = "127.0.0.2"
  let pub: SwitchableHttpServer
  let server: Awaited<ReturnType<typeof startTestServer>>
  /** `rebind.test` answers the public address once, then loopback: DNS rebinding */
  let rebindLookups = 0
  beforeAll(async () => {
    pub = await startSwitchableHttpServer({ host: PRETEND_PUBLIC })
    server = await startTestServer({
      refusePrivateSources: {
        classify: (address) => (address === PRETEND_PUBLIC ? "public" : classifyAddress(address)),
        resolve: async (hostname) => {
          if (hostname === "public.test") return [{ address: PRETEND_PUBLIC, family: 4 }]
          if (hostname === "rebind.test")
            return [{ address: rebindLookups++ === 0 ? PRETEND_PUBLIC : "127.0.0.1", family: 4 }]
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
        },
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
    await pub?.close()
  })

  it("a public name is allowed", async () => {
    pub.mode = { kind: "mcp" }
    const added = await server.request(
      "POST",
      "/v1/sources",
      httpSource("public", `http://public.test:${pub.port}/mcp`),
    )
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect((await server.execute("return (await tools.public.ping({})).data")).result).toBe("pong")
  })

  it("a public name that redirects to loopback is refused, and the loopback service gets nothing", async () => {
    internal.hits = 0
    pub.mode = { kind: "redirect", status: 307, location: internal.url }
    const added = await server.request(
      "POST",
      "/v1/sources",
      httpSource("redirected", `http://public.test:${pub.port}/mcp`),
    )
    // the MCP SDK itself follows only same-origin redirects; a cross-origin one ends the add as an upstream failure
    expect([403, 502]).toContain(added.status)
    expect(internal.hits).toBe(0)
  })

  it("a name that re-resolves to loopback for the redirect's next request (same origin) is refused: 403 private_address", async () => {
    internal.hits = 0
    pub.mode = { kind: "redirect", status: 307, location: "/elsewhere" }
    const added = await server.request(
      "POST",
      "/v1/sources",
      httpSource("rebound", `http://rebind.test:${pub.port}/mcp`),
    )
    expect(added.status, JSON.stringify(added.body)).toBe(403)
    expect(added.body.error.code).toBe("private_address")
    expect(rebindLookups).toBe(2)
    expect(internal.hits).toBe(0)
  })
})
