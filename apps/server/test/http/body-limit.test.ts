/** Request bodies are bounded on /v1 and /mcp (10 MiB by default), answered 413 `body_too_large` over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { serveAppWith } from "../support/serve-app.js"
import type { ServedApp } from "../support/serve-app.js"

const MIB = 1024 * 1024
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
/** A tools/list whose params carry `padding` characters: a large, valid MCP message. */
const paddedToolsList = (padding: number) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { padding: "x".repeat(padding) } } })

describe("the default limit", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ runtime: "in-thread" })
  })
  afterAll(() => server?.stop())

  it("refuses a body over 10 MiB on /v1 and on /mcp", async () => {
    const script = JSON.stringify({ code: `return "${"x".repeat(10 * MIB)}".length` })
    for (const [path, body] of [
      ["/v1/execute", script],
      ["/v1/sources", script],
      ["/mcp", paddedToolsList(10 * MIB)],
    ]) {
      const response = await fetch(server.url + path!, { method: "POST", headers: mcpHeaders, body })
      expect(response.status, path).toBe(413)
      expect(await response.json()).toEqual({
        error: {
          code: "body_too_large",
          message: "the request body is larger than this server's limit of 10 MiB (10485760 bytes)",
        },
      })
    }
  })

  it("takes an MCP message over the SDK transport's own 4 MiB default", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: mcpHeaders,
      body: paddedToolsList(5 * MIB),
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as any).result.tools.map((t: { name: string }) => t.name)).toContain("execute")
  })
})

describe("a configured limit", () => {
  let server: ServedApp
  beforeAll(async () => {
    server = await serveAppWith({ maxBodyBytes: 1024 })
  })
  afterAll(() => server?.close())

  it("counts a chunked body, which declares no length, as it streams", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(600))
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"code":"return 1"'))
        controller.enqueue(chunk)
        controller.enqueue(chunk)
        controller.enqueue(new TextEncoder().encode("}"))
        controller.close()
      },
    })
    const response = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(((await response.json()) as any).error.message).toBe(
      "the request body is larger than this server's limit of 1024 bytes",
    )
  })

  it("takes a body under it", async () => {
    const response = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"code":"return 1"}',
    })
    expect(((await response.json()) as any).result).toBe(1)
  })
})
