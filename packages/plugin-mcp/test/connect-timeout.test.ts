/**
 * Connecting to a source is bounded by `connectTimeoutMs` as a whole: the SDK's own timeout covers the initialize
 * request, not the initialized notification after it, which over streamable HTTP is a POST of its own. A real
 * server on loopback that answers initialize and then never answers that POST.
 */
import { createServer } from "node:http"
import type { ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, expect, it } from "vitest"
import type { SourceHandle } from "@switchboard/core"
import { createMcpPlugin } from "../src/index.js"

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** answers initialize; holds every notification's POST open, unanswered */
const startStallingServer = async () => {
  const held: ServerResponse[] = []
  const server = createServer((request, response) => {
    if (request.method !== "POST") return void response.writeHead(405).end()
    const parts: Buffer[] = []
    request.on("data", (part: Buffer) => parts.push(part))
    request.on("end", () => {
      const message = JSON.parse(Buffer.concat(parts).toString("utf8")) as {
        id?: number
        method: string
        params?: { protocolVersion?: string }
      }
      if (message.id === undefined) return void held.push(response)
      const result = {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "stalling", version: "1.0.0" },
      }
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  cleanup.push(() => new Promise((resolve) => server.close(resolve)))
  cleanup.push(async () => server.closeAllConnections())
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, held }
}

it("a server that answers initialize and never the initialized notification fails the connection at connectTimeoutMs", async () => {
  const stalling = await startStallingServer()
  const mcp = await createMcpPlugin({ connectTimeoutMs: 1_000 })
  cleanup.push(() => mcp.close())
  const source: SourceHandle = {
    id: "stalling",
    namespace: "stalling",
    kind: "mcp",
    config: { transport: { type: "http", url: stalling.url, headers: {} } },
  }
  // without the bound this waits for the HTTP client's own timeout (minutes): the test's 15 s would end it first
  const outcome = await mcp.discover(source)
  expect(stalling.held).toHaveLength(1)
  expect(outcome).toMatchObject({ ok: false })
  expect((outcome as { message: string }).message).toMatch(/did not finish connecting within 1000 ms/)
}, 15_000)
