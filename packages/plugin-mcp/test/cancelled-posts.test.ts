/**
 * A tools/call the client gave up on (its deadline passed) ends its POST: a server that honours the cancellation
 * never answers it, and the POST would hold its socket for the HTTP client's own timeouts (minutes). A hand-written
 * server on loopback that never answers tools/call, and notes when each such POST's connection closes.
 */
import type { ServerResponse } from "node:http"
import { afterEach, expect, it } from "vitest"
import { createMcpPlugin } from "../src/index.js"
import { answerWith, httpSource, initializeResult, startRawMcpServer } from "./raw-mcp-server.js"

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

it("a call whose deadline passes is cancelled, and its POST ends with it", async () => {
  const calls: { closed: boolean; response: ServerResponse }[] = []
  const methods: string[] = []
  const server = await startRawMcpServer((message, response) => {
    methods.push(message.method)
    if (message.id === undefined) return void response.writeHead(202).end()
    if (message.method === "initialize") return answerWith(response, message, initializeResult(message, "silent"))
    // tools/call: never answered
    const call = { closed: false, response }
    response.once("close", () => (call.closed = true))
    calls.push(call)
  })
  cleanup.push(server.close)
  const mcp = await createMcpPlugin({ connectTimeoutMs: 10_000 })
  cleanup.push(() => mcp.close())
  const source = httpSource("silent", server.url)
  const outcome = await mcp.invoke(source, "wait", {}, { deadline: Date.now() + 300 })
  expect(outcome).toMatchObject({ ok: false, code: "tool_timeout" })
  await expect.poll(() => methods).toContain("notifications/cancelled")
  await expect.poll(() => calls.map((call) => call.closed), { timeout: 3_000 }).toEqual([true])
})
