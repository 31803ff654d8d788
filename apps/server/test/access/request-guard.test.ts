/**
 * Browser-borne requests over real HTTP (ARCHITECTURE.md: safety): on loopback the API needs no key, so a web page the
 * operator opens must not be able to add a stdio source or run a script. packages/api's
 * src/request-guard.test.ts covers each rule; this shows them on the wire.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { serveAppWith } from "../support/serve-app.js"
import type { ServedApp } from "../support/serve-app.js"

/** A stdio source as a hostile page would post it: it would run a command on this host. */
const stdioSource = JSON.stringify({
  namespace: "pwned",
  kind: "mcp",
  transport: { type: "stdio", command: "touch", args: ["/tmp/pwned"] },
})

/** node:http, because fetch will not send a Host header of the caller's choosing. */
const rawRequest = (
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path, headers: options.headers },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }))
      },
    )
    req.on("error", reject)
    req.end(options.body)
  })

describe("a loopback server without keys", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ runtime: "in-thread" })
  })
  afterAll(() => server?.stop())

  it("refuses a text/plain POST, the simple request a web page can send without a preflight", async () => {
    for (const [path, body] of [
      ["/v1/sources", stdioSource],
      ["/v1/execute", '{"code":"return 1"}'],
    ]) {
      // fetch sends a string body as text/plain;charset=UTF-8, as a browser does
      const response = await fetch(server.url + path!, { method: "POST", body })
      expect(response.status, path).toBe(415)
      expect(await response.json()).toEqual({
        error: { code: "unsupported_media_type", message: expect.stringMatching(/application\/json/) },
      })
    }
    expect((await server.request("GET", "/v1/sources")).body.sources).toEqual([])
  })

  it("refuses a request from a page at another origin, on /v1 and on /mcp", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      origin: "https://evil.example",
    }
    for (const [path, body] of [
      ["/v1/sources", stdioSource],
      ["/v1/execute", '{"code":"return 1"}'],
      ["/mcp", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
    ]) {
      const response = await fetch(server.url + path!, { method: "POST", headers, body })
      expect(response.status, path).toBe(403)
      expect(((await response.json()) as any).error.code).toBe("forbidden_origin")
    }
    const sync = await fetch(`${server.url}/v1/sources/demo/sync`, { method: "POST", headers: { origin: "null" } })
    expect(sync.status).toBe(403)
  })

  it("answers its own origin, and clients that send no Origin", async () => {
    const headers = { "content-type": "application/json" }
    const own = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { ...headers, origin: server.url },
      body: '{"code":"return 1"}',
    })
    expect(own.status).toBe(200)
    expect(((await own.json()) as any).result).toBe(1)
    expect((await server.execute("return 2")).result).toBe(2)
  })

  it("serves its OpenAPI document", async () => {
    const response = await server.request("GET", "/v1/openapi.json")
    expect(response.status).toBe(200)
    expect(response.body.openapi).toBe("3.1.0")
    expect(Object.keys(response.body.paths)).toContain("/v1/execute")
  })
})

describe("with allowedHosts, as a loopback host without keys passes them", () => {
  let server: ServedApp
  beforeAll(async () => {
    server = await serveAppWith({ allowedHosts: ["127.0.0.1", "localhost", "::1"] })
  })
  afterAll(() => server?.close())

  it("refuses a Host it does not answer to: a DNS name rebound to 127.0.0.1", async () => {
    const host = `rebound.evil.example:${server.port}`
    // the page's own origin, so the Origin check alone would let it through
    const headers = { host, origin: `http://${host}`, "content-type": "application/json" }
    for (const [method, path, body] of [
      ["POST", "/v1/sources", stdioSource],
      ["GET", "/v1/sources", undefined],
      ["POST", "/mcp", "{}"],
    ] as const) {
      const response = await rawRequest(server.port, { method, path, headers, body })
      expect(response.status, path).toBe(403)
      expect(response.body.error).toEqual({ code: "forbidden_host", message: expect.stringContaining(`"${host}"`) })
    }
    expect((await rawRequest(server.port, { path: "/healthz", headers: { host } })).status).toBe(200)
  })

  it("answers the loopback names it listens on", async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      const response = await rawRequest(server.port, { path: "/v1/sources", headers: { host } })
      expect(response.status, host).toBe(200)
    }
    expect((await fetch(`${server.url}/v1/sources`)).status).toBe(200)
  })
})
