/**
 * An http MCP server that answers with far more than any message needs is cut off while it sends, not read
 * whole first: a 500 with a 64 MB body, and a JSON answer past the message bound. Real servers on loopback.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import type { SourceHandle } from "@switchboard/core"
import { createMcpPlugin } from "../src/index.js"
import { answerWith, initializeResult, startRawMcpServer } from "./raw-mcp-server.js"

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const MB = 1024 * 1024

/** Answers every request with `status`, `type` and `totalBytes` of filler, counting what it managed to write. */
const startFlood = async (status: number, type: string, totalBytes: number) => {
  const stats = { written: 0 }
  const chunk = Buffer.alloc(64 * 1024, "x")
  const server = createServer((request, response) => {
    request.resume()
    response.writeHead(status, { "content-type": type })
    if (type === "application/json") {
      response.write('{"jsonrpc":"2.0","id":0,"result":{"pad":"')
    }
    const pump = () => {
      while (stats.written < totalBytes) {
        stats.written += chunk.length
        if (!response.write(chunk)) return void response.once("drain", pump)
      }
      response.end(type === "application/json" ? '"}}' : "")
    }
    pump()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  cleanup.push(() => new Promise((resolve) => server.close(resolve)))
  cleanup.push(async () => server.closeAllConnections())
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, stats }
}

const source = (url: string): SourceHandle => ({
  id: "flood",
  namespace: "flood",
  kind: "mcp",
  config: { transport: { type: "http", url, headers: {} } },
})

it("a 500 with a 64 MB body: the sync fails with the status and an excerpt, and the body is not read whole", async () => {
  const flood = await startFlood(500, "text/plain", 64 * MB)
  const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000 })
  cleanup.push(() => mcp.close())
  const outcome = await mcp.discover(source(flood.url))
  expect(outcome).toMatchObject({ ok: false })
  expect((outcome as { message: string }).message).toMatch(/500/)
  expect((outcome as { message: string }).message.length).toBeLessThan(1_000)
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(flood.stats.written).toBeLessThan(16 * MB)
})

it("a JSON answer past the message bound: the sync fails naming the bound, and the answer is not read whole", async () => {
  const flood = await startFlood(200, "application/json", 64 * MB)
  const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000, maxUpstreamMessageBytes: MB })
  cleanup.push(() => mcp.close())
  const outcome = await mcp.discover(source(flood.url))
  expect(outcome).toMatchObject({ ok: false })
  expect((outcome as { message: string }).message).toContain(`larger than ${MB} bytes`)
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(flood.stats.written).toBeLessThan(16 * MB)
})

/**
 * A streamable-HTTP MCP server that answers initialize and notifications as it should, and answers `flooded`
 * methods with a JSON answer of 64 MB; tools/list otherwise lists one tool.
 */
const startFloodingServer = async (flooded: readonly string[]) => {
  const stats = { written: 0 }
  const chunk = Buffer.alloc(64 * 1024, "x")
  const server = await startRawMcpServer((message, response) => {
    if (message.id === undefined) return void response.writeHead(202).end()
    if (flooded.includes(message.method)) {
      response.writeHead(200, { "content-type": "application/json" })
      response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"pad":"`)
      const pump = () => {
        while (stats.written < 64 * MB) {
          stats.written += chunk.length
          if (!response.write(chunk)) return void response.once("drain", pump)
        }
        response.end('"}}')
      }
      return pump()
    }
    if (message.method === "initialize") return answerWith(response, message, initializeResult(message, "flood"))
    if (message.method === "tools/list")
      return answerWith(response, message, { tools: [{ name: "big", inputSchema: { type: "object" } }] })
    answerWith(response, message, {})
  })
  cleanup.push(server.close)
  return { url: server.url, stats }
}

describe("an answer past the message bound is the server misbehaving (upstream_error), as a stdio flood is", () => {
  it("a sync whose handshake passes the bound: upstreamError, so core answers upstream_error, not retryable", async () => {
    const flood = await startFlood(200, "application/json", 64 * MB)
    const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000, maxUpstreamMessageBytes: MB })
    cleanup.push(() => mcp.close())
    expect(await mcp.discover(source(flood.url))).toMatchObject({ ok: false, upstreamError: true })
  })

  it("a sync whose tools/list passes the bound: upstreamError", async () => {
    const flood = await startFloodingServer(["tools/list"])
    const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000, maxUpstreamMessageBytes: MB })
    cleanup.push(() => mcp.close())
    const outcome = await mcp.discover(source(flood.url))
    expect(outcome).toMatchObject({ ok: false, upstreamError: true })
    expect((outcome as { message: string }).message).toContain(`larger than ${MB} bytes`)
  })

  it("a call whose answer passes the bound: upstream_error, not retryable, naming the bound", async () => {
    const flood = await startFloodingServer(["tools/call"])
    const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000, maxUpstreamMessageBytes: MB })
    cleanup.push(() => mcp.close())
    const outcome = await mcp.invoke(source(flood.url), "big", {}, { deadline: Date.now() + 10_000 })
    expect(outcome).toMatchObject({ ok: false, code: "upstream_error" })
    expect((outcome as { retryable?: boolean }).retryable).toBeUndefined()
    expect((outcome as { message: string }).message).toContain(`larger than ${MB} bytes`)
    expect((outcome as { message: string }).message).not.toContain("the connection was closed")
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(flood.stats.written).toBeLessThan(16 * MB)
  })
})
