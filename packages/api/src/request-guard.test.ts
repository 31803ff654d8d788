import { describe, expect, it } from "vitest"
import { memoryKeys, stubApp } from "../test/stub-app.js"

const execute = (
  headers: Record<string, string>,
  body: RequestInit["body"] = '{"code":"return 1"}',
  path = "/v1/execute",
) => stubApp().request(`http://127.0.0.1:4747${path}`, { method: "POST", headers, body })

const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code

describe("content type", () => {
  it("refuses a text/plain body: the shape of a cross-origin simple request", async () => {
    const response = await execute({ "content-type": "text/plain;charset=UTF-8" })
    expect(response.status).toBe(415)
    expect(await codeOf(response)).toBe("unsupported_media_type")
  })

  it("refuses a form body and a body with no content type", async () => {
    expect((await execute({ "content-type": "application/x-www-form-urlencoded" })).status).toBe(415)
    expect((await execute({ "content-length": "19" }, new TextEncoder().encode('{"code":"return 1"}'))).status).toBe(
      415,
    )
    expect(
      (await execute({ "transfer-encoding": "chunked" }, new TextEncoder().encode('{"code":"return 1"}'))).status,
    ).toBe(415)
  })

  it("takes JSON, with or without parameters", async () => {
    expect((await execute({ "content-type": "application/json" })).status).toBe(200)
    expect((await execute({ "content-type": "Application/JSON; charset=utf-8" })).status).toBe(200)
  })

  it("lets a POST with no body through, unless it names another content type", async () => {
    expect((await execute({ "content-length": "0" }, null, "/v1/sources/demo/sync")).status).toBe(200)
    expect((await execute({}, null, "/v1/sources/demo/sync")).status).toBe(200)
    expect((await execute({ "content-type": "text/plain" }, null, "/v1/sources/demo/sync")).status).toBe(415)
  })

  it("does not check GET requests that name a content type", async () => {
    expect(
      (await stubApp().request("http://127.0.0.1:4747/v1/sources", { headers: { "content-type": "text/plain" } }))
        .status,
    ).toBe(200)
  })
})

describe("origin", () => {
  it("refuses a request from another origin", async () => {
    for (const origin of [
      "https://evil.example",
      "http://127.0.0.1:3000",
      "http://localhost:4747",
      "null",
      "not a url",
    ]) {
      const response = await execute({ "content-type": "application/json", origin })
      expect(response.status, origin).toBe(403)
      expect(await codeOf(response)).toBe("forbidden_origin")
    }
  })

  it("refuses a foreign origin on reads too", async () => {
    const response = await stubApp().request("http://127.0.0.1:4747/v1/sources", {
      headers: { origin: "https://evil.example" },
    })
    expect(response.status).toBe(403)
  })

  it("lets the server's own origin through, and a request with no Origin", async () => {
    expect((await execute({ "content-type": "application/json", origin: "http://127.0.0.1:4747" })).status).toBe(200)
    expect((await execute({ "content-type": "application/json" })).status).toBe(200)
    const plain = await stubApp().request("http://localhost/v1/sources", { headers: { origin: "http://localhost:80" } })
    expect(plain.status).toBe(200)
  })
})

describe("host", () => {
  const app = stubApp({ allowedHosts: ["127.0.0.1:4747", "localhost", "::1"] })
  const get = (host: string, origin?: string) =>
    app.request(`http://${host}/v1/sources`, { headers: { host, ...(origin ? { origin } : {}) } })

  it("answers the hosts it was given: host:port exactly, a bare host on any port", async () => {
    for (const host of [
      "127.0.0.1:4747",
      "127.1:4747",
      "localhost:4747",
      "LOCALHOST:9",
      "localhost",
      "[::1]:4747",
      "[0:0::1]:4747",
    ])
      expect((await get(host)).status, host).toBe(200)
  })

  it("refuses any other Host, as a DNS-rebound page sends it, even from its own origin", async () => {
    for (const host of ["evil.example:4747", "127.0.0.1:4748", "127.0.0.1", "[::2]:4747", "localhost.evil.example"]) {
      const response = await get(host, `http://${host}`)
      expect(response.status, host).toBe(403)
      expect(await codeOf(response)).toBe("forbidden_host")
    }
  })

  it("skips the Host check when no hosts are given", async () => {
    expect(
      (await stubApp().request("http://evil.example:4747/v1/sources", { headers: { host: "evil.example:4747" } }))
        .status,
    ).toBe(200)
  })

  it("refuses an empty list and an entry that is not a host", () => {
    expect(() => stubApp({ allowedHosts: [] })).toThrow(/empty/)
    expect(() => stubApp({ allowedHosts: ["http://localhost"] })).toThrow(/not a host/)
  })
})

it("never guards /healthz", async () => {
  const app = stubApp({ allowedHosts: ["127.0.0.1"] })
  const response = await app.request("http://evil.example/healthz", {
    headers: { host: "evil.example", origin: "https://evil.example" },
  })
  expect(response.status).toBe(200)
})

it("checks the key before anything else, so a caller without one learns only that it needs one", async () => {
  const app = stubApp({}, { keys: memoryKeys() })
  const response = await app.request("http://127.0.0.1:4747/v1/execute", {
    method: "POST",
    headers: { "content-type": "text/plain", origin: "https://evil.example" },
    body: "{}",
  })
  expect(response.status).toBe(401)
})
