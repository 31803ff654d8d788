/**
 * An HTTP upstream that restarts is recovered from: a request it did not process (its session is gone, or the
 * connection was refused) is sent again once on a new session, and a handshake answered 5xx is tried once more.
 * A call it may have processed is not sent again.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { startContractHttpServer, startSwitchableHttpServer } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"

const source = (id: string, url: string): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport: { type: "http", url, headers: {} } },
})
const ctx = () => ({ deadline: Date.now() + 10_000 })
const echoed = (text: string) => ({ ok: true, raw: { content: [{ type: "text", text }] } })

const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})
const plugin = async (): Promise<SourcePlugin> => {
  const made = await createMcpPlugin({ connectTimeoutMs: 10_000 })
  cleanup.push(() => made.close())
  return made
}

describe("an HTTP upstream that restarts", () => {
  it("a call after the restart (404 for the old session) makes a new session and succeeds; so does a sync", async () => {
    const first = await startContractHttpServer()
    const port = Number(new URL(first.url).port)
    const mcp = await plugin()
    const handle = source("restarted", first.url)
    expect(await mcp.invoke(handle, "echo", { message: "before" }, ctx())).toEqual(echoed("before"))
    await first.close()
    await settle() // the old keep-alive socket is seen closed: a request on it would be a dropped call (tested below)
    const second = await startContractHttpServer({ port })
    expect(await mcp.invoke(handle, "echo", { message: "after" }, ctx())).toEqual(echoed("after"))

    await second.close()
    await settle()
    const third = await startContractHttpServer({ port })
    cleanup.push(() => third.close())
    expect(await mcp.discover(handle)).toMatchObject({ ok: true })
  })

  it("a call while the upstream is down fails as upstream_unavailable, and the next call after it is back succeeds", async () => {
    const first = await startContractHttpServer()
    const port = Number(new URL(first.url).port)
    const mcp = await plugin()
    const handle = source("down", first.url)
    expect(await mcp.invoke(handle, "echo", { message: "before" }, ctx())).toEqual(echoed("before"))
    await first.close()
    expect(await mcp.invoke(handle, "echo", { message: "down" }, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      retryable: true,
    })
    expect(await mcp.invoke(handle, "echo", { message: "still down" }, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
    })
    const back = await startContractHttpServer({ port })
    cleanup.push(() => back.close())
    expect(await mcp.invoke(handle, "echo", { message: "back" }, ctx())).toEqual(echoed("back"))
  })

  it("a source that could not be connected to is tried afresh by the next call, not held as failed", async () => {
    const probe = await startContractHttpServer()
    const port = Number(new URL(probe.url).port)
    await probe.close()
    const mcp = await plugin()
    const handle = source("late", probe.url)
    expect(await mcp.invoke(handle, "echo", { message: "early" }, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      message: expect.stringContaining("ECONNREFUSED"),
    })
    const up = await startContractHttpServer({ port })
    cleanup.push(() => up.close())
    expect(await mcp.invoke(handle, "echo", { message: "up" }, ctx())).toEqual(echoed("up"))
  })

  it("a handshake answered 503 once is tried again, and the call succeeds", async () => {
    const upstream = await startSwitchableHttpServer({
      mode: { kind: "error", status: 503, body: "restarting", times: 1 },
    })
    cleanup.push(() => upstream.close())
    const mcp = await plugin()
    expect(await mcp.invoke(source("handshake", upstream.url), "ping", {}, ctx())).toEqual(echoed("pong"))
  })

  it("a handshake answered 503 twice fails as upstream_unavailable, naming the status", async () => {
    const upstream = await startSwitchableHttpServer({
      mode: { kind: "error", status: 503, body: "restarting", times: 2 },
    })
    cleanup.push(() => upstream.close())
    const mcp = await plugin()
    expect(await mcp.invoke(source("handshake-twice", upstream.url), "ping", {}, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      message: expect.stringContaining("HTTP 503"),
    })
  })

  it("a call answered 500 is not sent again (the tool may have run), and is given up: the server is told so", async () => {
    const upstream = await startSwitchableHttpServer()
    cleanup.push(() => upstream.close())
    const mcp = await plugin()
    const handle = source("no-resend", upstream.url)
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toEqual(echoed("pong"))
    upstream.mode = { kind: "error", status: 500, body: "boom" }
    const before = upstream.methods.length
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toMatchObject({ ok: false, code: "upstream_unavailable" })
    // the client cancels a request whose POST failed: otherwise it keeps waiting for its answer (its handler, and
    // the call's arguments, held until the connection closes)
    await expect.poll(() => upstream.methods.slice(before)).toEqual(["tools/call", "notifications/cancelled"])
  })

  it("a call whose connection drops is not sent again (it may have run), and the next call works", async () => {
    const upstream = await startSwitchableHttpServer()
    cleanup.push(() => upstream.close())
    const mcp = await plugin()
    const handle = source("dropped", upstream.url)
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toEqual(echoed("pong"))
    upstream.mode = { kind: "drop" }
    const before = upstream.methods.length
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      retryable: true,
    })
    // sent once (a resend would come before the answer); the client's cancellation of it may follow
    expect(upstream.methods.slice(before).filter((method) => method === "tools/call")).toEqual(["tools/call"])
    upstream.mode = { kind: "mcp" }
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toEqual(echoed("pong"))
  })

  it("a sync whose connection drops is sent again: tools/list changes nothing", async () => {
    const upstream = await startSwitchableHttpServer()
    cleanup.push(() => upstream.close())
    const mcp = await plugin()
    const handle = source("dropped-list", upstream.url)
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toEqual(echoed("pong"))
    upstream.mode = { kind: "drop", times: 1 }
    expect(await mcp.discover(handle)).toMatchObject({ ok: true })
  })

  it("a request lost on the new session too is not sent a third time: upstream_unavailable", async () => {
    const forgetful = await startForgetfulServer(0)
    const mcp = await plugin()
    expect(await mcp.invoke(source("forgetful", forgetful.url), "ping", {}, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      message: expect.stringContaining("HTTP 404"),
    })
    expect(forgetful.seen().initializes).toBe(2)
  })

  it("a call on an open connection whose session is gone is sent once more, on one new session", async () => {
    const forgetful = await startForgetfulServer(1)
    const mcp = await plugin()
    const handle = source("forgetting", forgetful.url)
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toEqual(echoed("pong"))
    expect(await mcp.invoke(handle, "ping", {}, ctx())).toMatchObject({
      ok: false,
      code: "upstream_unavailable",
      message: expect.stringContaining("not taken on a new session either"),
    })
    expect(forgetful.seen()).toEqual({ initializes: 2, calls: 3 })
  })
})

/**
 * An HTTP MCP server that makes a session at every initialize and answers the first `answered` tool calls, then
 * forgets every session: each request after that answers 404, as a restarted server does.
 */
const startForgetfulServer = async (answered: number) => {
  let initializes = 0
  let calls = 0
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end()
      const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } }
      if (message.id === undefined) return void res.writeHead(202).end()
      const answer = (result: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(200, { "content-type": "application/json", ...headers })
          .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }))
      if (message.method === "initialize") {
        initializes++
        const info = { name: "forgetful", version: "1" }
        const result = {
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: info,
        }
        return answer(result, { "mcp-session-id": `s${initializes}` })
      }
      if (message.method === "tools/call" && ++calls <= answered)
        return answer({ content: [{ type: "text", text: "pong" }] })
      res
        .writeHead(404, { "content-type": "application/json" })
        .end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  cleanup.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen: () => ({ initializes, calls }),
  }
}
