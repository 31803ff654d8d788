/**
 * Connecting to a source is bounded by `connectTimeoutMs` as a whole: the SDK's own timeout covers the initialize
 * request, not the initialized notification after it, which over streamable HTTP is a POST of its own. A real
 * server on loopback that answers initialize and then never answers that POST.
 */
import type { ServerResponse } from "node:http"
import { afterEach, expect, it } from "vitest"
import { createMcpPlugin } from "../src/index.js"
import { answerWith, httpSource, initializeResult, startRawMcpServer } from "./raw-mcp-server.js"

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** answers initialize; holds every notification's POST open, unanswered */
const startStallingServer = async () => {
  const held: ServerResponse[] = []
  const server = await startRawMcpServer((message, response) => {
    if (message.id === undefined) return void held.push(response)
    answerWith(response, message, initializeResult(message, "stalling"))
  })
  cleanup.push(server.close)
  return { url: server.url, held }
}

it("a server that answers initialize and never the initialized notification fails the connection at connectTimeoutMs", async () => {
  const stalling = await startStallingServer()
  const mcp = await createMcpPlugin({ connectTimeoutMs: 1_000 })
  cleanup.push(() => mcp.close())
  const source = httpSource("stalling", stalling.url)
  // without the bound this waits for the HTTP client's own timeout (minutes): the test's 15 s would end it first
  const outcome = await mcp.discover(source)
  expect(stalling.held).toHaveLength(1)
  expect(outcome).toMatchObject({ ok: false })
  expect((outcome as { message: string }).message).toMatch(/did not finish connecting within 1000 ms/)
}, 15_000)
