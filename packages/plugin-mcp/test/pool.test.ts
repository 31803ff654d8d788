/** Pooled connections: a connection that is going away never takes its successor with it; HTTP sessions are ended. */
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand, startContractHttpServer } from "@switchboard/fixtures"
import type { RawInvokeResult, SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"
import { ConnectFailed, isConnectFailed } from "../src/pool.js"

const source = (
  id: string,
  transport: unknown = { type: "stdio", ...fixtureCommand("contract-stdio"), env: {} },
): SourceHandle => ({ id, namespace: id, kind: "mcp", config: { transport } })
const ctx = () => ({ deadline: Date.now() + 10_000 })
const pidOf = (result: RawInvokeResult): number => {
  if (!result.ok) throw new Error(`pid failed: ${result.message}`)
  return Number((result.raw as { content: { text: string }[] }).content[0]!.text)
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const waitFor = async (condition: () => boolean, ms = 5_000) => {
  for (const until = Date.now() + ms; !condition(); await sleep(20))
    if (Date.now() > until) throw new Error(`not so after ${ms} ms`)
}

/**
 * A stdio server with `pid` and `slow` tools that outlives the end of its stdin, so the client's close() waits
 * its two seconds and then SIGTERMs it: the old connection's close lands late, while a successor is busy.
 */
const STUBBORN_SERVER = `
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n")
const text = (t) => ({ content: [{ type: "text", text: String(t) }] })
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined) return
  if (m.method === "initialize") {
    return send({
      jsonrpc: "2.0",
      id: m.id,
      result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "stubborn", version: "1" } },
    })
  }
  if (m.params?.name === "slow") return setTimeout(() => send({ jsonrpc: "2.0", id: m.id, result: text("done") }), m.params.arguments.ms)
  send({ jsonrpc: "2.0", id: m.id, result: text(process.pid) })
})
setInterval(() => {}, 60_000)
`

describe("connection lifecycle", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000 })
  })
  afterAll(() => plugin?.close())

  it("the old connection closing after a release does not invalidate the new one", async () => {
    const handle = source("successor")
    const first = pidOf(await plugin.invoke(handle, "pid", {}, ctx()))
    const released = plugin.release("successor") // the old process exits while the new one starts
    const second = pidOf(await plugin.invoke(handle, "pid", {}, ctx()))
    await released
    await sleep(200)
    const third = pidOf(await plugin.invoke(handle, "pid", {}, ctx()))
    expect(second).not.toBe(first)
    expect(third).toBe(second)
  })

  it("a call in flight when its source is released finishes on its connection, which closes when it ends", async () => {
    const handle = source("released-in-flight")
    const old = pidOf(await plugin.invoke(handle, "pid", {}, ctx())) // the connection is open: calls take it as a lease
    const inFlight = plugin.invoke(handle, "slow", { ms: 3_000 }, ctx())
    await sleep(100)
    await plugin.release("released-in-flight")
    expect(pidOf(await plugin.invoke(handle, "pid", {}, ctx()))).not.toBe(old)
    expect(alive(old)).toBe(true)
    expect(await inFlight).toMatchObject({ ok: true })
    await waitFor(() => !alive(old))
  })

  it("an old connection whose server dies after it was replaced does not take the new one with it", async () => {
    const handle = source("replaced")
    const old = pidOf(await plugin.invoke(handle, "pid", {}, ctx()))
    const inFlight = plugin.invoke(handle, "slow", { ms: 5_000 }, ctx()) // keeps the old connection alive after release
    await sleep(100)
    await plugin.release("replaced")
    const successor = pidOf(await plugin.invoke(handle, "pid", {}, ctx()))
    expect(successor).not.toBe(old)
    process.kill(old)
    expect(await inFlight).toMatchObject({ ok: false, code: "upstream_unavailable" })
    await sleep(200)
    expect(pidOf(await plugin.invoke(handle, "pid", {}, ctx()))).toBe(successor)
  })

  it("calls keep a connection open past the idle time; without calls it closes after it", async () => {
    const idle = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000, idleTimeToLiveMs: 400 })
    try {
      const handle = source("kept")
      const first = pidOf(await idle.invoke(handle, "pid", {}, ctx()))
      for (let i = 0; i < 4; i++) {
        await sleep(200)
        expect(pidOf(await idle.invoke(handle, "pid", {}, ctx()))).toBe(first)
      }
      await waitFor(() => !alive(first))
      expect(pidOf(await idle.invoke(handle, "pid", {}, ctx()))).not.toBe(first)
    } finally {
      await idle.close()
    }
  })

  it("the old connection closing late after idle expiry does not invalidate the new one", async () => {
    const idle = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000, idleTimeToLiveMs: 300 })
    try {
      const handle = source("idle", {
        type: "stdio",
        command: process.execPath,
        args: ["-e", STUBBORN_SERVER],
        env: {},
      })
      const first = pidOf(await idle.invoke(handle, "pid", {}, ctx()))
      await sleep(600) // expired: its close is under way and ends about two seconds from now
      const busy = idle.invoke(handle, "slow", { ms: 3_000 }, ctx())
      const second = pidOf(await idle.invoke(handle, "pid", {}, ctx()))
      expect(second).not.toBe(first)
      expect(await busy).toMatchObject({ ok: true })
      expect(pidOf(await idle.invoke(handle, "pid", {}, ctx()))).toBe(second)
    } finally {
      await idle.close()
    }
  })
})

describe("streamable HTTP sessions", () => {
  it("releasing a source ends its upstream session (DELETE), so the server can forget it", async () => {
    const upstream = await startContractHttpServer()
    const target = new URL(upstream.url)
    const seen: { method: string; session: string | undefined }[] = []
    // A pass-through proxy, to see what the client sends.
    const proxy = createServer((req, res) => {
      seen.push({ method: req.method ?? "", session: req.headers["mcp-session-id"] as string | undefined })
      const forward = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forward.on("error", () => res.destroy())
      req.pipe(forward)
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    const plugin = await createMcpPlugin({ connectTimeoutMs: 20_000 })
    try {
      const handle = source("http", {
        type: "http",
        url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`,
        headers: {},
      })
      expect((await plugin.invoke(handle, "echo", { message: "hi" }, ctx())).ok).toBe(true)
      const session = seen.find((r) => r.session)?.session
      expect(session).toBeDefined()
      await plugin.release("http")
      expect(seen).toContainEqual({ method: "DELETE", session })
      const after = await fetch(upstream.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": session!,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      })
      expect(after.status).toBe(404)
    } finally {
      await plugin.close()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
      await upstream.close()
    }
  })

  it("an upstream that is gone does not hold up the release", async () => {
    const upstream = await startContractHttpServer()
    const plugin = await createMcpPlugin({ connectTimeoutMs: 20_000 })
    try {
      const handle = source("gone", { type: "http", url: upstream.url, headers: {} })
      expect((await plugin.invoke(handle, "echo", { message: "hi" }, ctx())).ok).toBe(true)
      await upstream.close()
      const started = Date.now()
      await plugin.release("gone")
      expect(Date.now() - started).toBeLessThan(10_000) // the SDK would wait out its 60 s default; ours gives up after 1 s
    } finally {
      await plugin.close()
    }
  })
})

describe("isConnectFailed", () => {
  it("recognises the tag, also on a copy from another bundle of this package", () => {
    expect(isConnectFailed(new ConnectFailed({ message: "refused" }))).toBe(true)
    expect(isConnectFailed({ _tag: "ConnectFailed", message: "refused" })).toBe(true)
    expect(isConnectFailed({ ok: false, code: "upstream_error", message: "x" })).toBe(false)
    expect(isConnectFailed(null)).toBe(false)
  })
})
