/**
 * A stdio server's stdout is bounded (ARCHITECTURE.md: safety): a line too long, too many lines that are not JSON-RPC, or too
 * much too fast closes the connection, and the call or sync fails with `upstream_error` naming the bound, soon,
 * while the main thread keeps turning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"

const source = (id: string, command: string, args: string[] = []): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport: { type: "stdio", command, args, env: {} } },
})
const node = (id: string, script: string) => source(id, process.execPath, ["-e", script])

/** A raw server that answers initialize and tools/list, and whose `flood` tool starts writing `FLOOD` forever. */
const floodingServer = (flood: string) => `
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n")
const flood = () => { const chunk = ${flood}; const go = () => { while (process.stdout.write(chunk)) {} process.stdout.once("drain", go) }; go() }
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined) return
  if (m.method === "initialize") return send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "flood", version: "1" } } })
  if (m.method === "tools/list") return send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "ok", inputSchema: { type: "object" } }, { name: "flood", inputSchema: { type: "object" } }] } })
  if (m.params?.name === "flood") return flood()
  send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "fine" }] } })
})
`
const garbage = `"not json at all\\n".repeat(4096)`
const notifications = `(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }) + "\\n").repeat(512)`

/** Counts how late a 20 ms timer fires while `work` runs: the main thread's worst stall. */
const worstStall = async <A>(work: () => Promise<A>): Promise<{ value: A; stallMs: number; elapsedMs: number }> => {
  let last = performance.now()
  let stallMs = 0
  const timer = setInterval(() => {
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last - 20)
    last = now
  }, 20)
  const started = performance.now()
  try {
    const value = await work()
    return { value, stallMs, elapsedMs: performance.now() - started }
  } finally {
    clearInterval(timer)
  }
}

describe("a stdio server that floods stdout", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 30_000, listTimeoutMs: 30_000 })
  })
  afterAll(() => plugin?.close())

  it("`yes` as the server: the sync fails at once naming the unparseable lines, and the main thread keeps turning", async () => {
    const { value, stallMs, elapsedMs } = await worstStall(() => plugin.discover(source("yes", "yes")))
    expect(value).toMatchObject({ ok: false, message: expect.stringMatching(/lines that are not JSON-RPC/) })
    expect(elapsedMs).toBeLessThan(10_000) // the connect timeout is 30 s
    expect(stallMs).toBeLessThan(1_000)
  })

  it("`yes` as the server: a call fails with upstream_error naming the cause", async () => {
    const result = await plugin.invoke(source("yes-call", "yes"), "anything", {}, { deadline: Date.now() + 30_000 })
    expect(result).toMatchObject({
      ok: false,
      code: "upstream_error",
      message: expect.stringMatching(/lines that are not JSON-RPC/),
    })
  })

  it("one endless line without a newline: the sync fails naming the line length", async () => {
    const endless = `const s = "x".repeat(65536); const go = () => { while (process.stdout.write(s)) {} process.stdout.once("drain", go) }; go()`
    const { value, stallMs, elapsedMs } = await worstStall(() => plugin.discover(node("endless", endless)))
    expect(value).toMatchObject({ ok: false, message: expect.stringMatching(/a line longer than 10 MiB/) })
    expect(elapsedMs).toBeLessThan(10_000)
    expect(stallMs).toBeLessThan(1_000)
  })

  it("a server that connects fine and floods garbage during a call: that call fails with upstream_error, the next one works", async () => {
    const handle = node("later", floodingServer(garbage))
    expect(await plugin.invoke(handle, "ok", {}, { deadline: Date.now() + 30_000 })).toMatchObject({ ok: true })
    const { value, stallMs, elapsedMs } = await worstStall(() =>
      plugin.invoke(handle, "flood", {}, { deadline: Date.now() + 30_000 }),
    )
    expect(value).toMatchObject({
      ok: false,
      code: "upstream_error",
      message: expect.stringMatching(/lines that are not JSON-RPC/),
    })
    expect(elapsedMs).toBeLessThan(10_000)
    expect(stallMs).toBeLessThan(1_000)
    expect(await plugin.invoke(handle, "ok", {}, { deadline: Date.now() + 30_000 })).toMatchObject({ ok: true }) // a new process
  })

  it("a server that floods valid notifications during a call: the call fails with upstream_error naming the rate", async () => {
    const handle = node("chatty", floodingServer(notifications))
    const { value, stallMs, elapsedMs } = await worstStall(() =>
      plugin.invoke(handle, "flood", {}, { deadline: Date.now() + 30_000 }),
    )
    expect(value).toMatchObject({
      ok: false,
      code: "upstream_error",
      message: expect.stringMatching(/messages in \d+ s/),
    })
    expect(elapsedMs).toBeLessThan(15_000)
    expect(stallMs).toBeLessThan(1_000)
  })
})
