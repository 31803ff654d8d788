/** The plugin against real fixture MCP servers: discovery across pages, pooled connections, failures as values. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contractToolNames, fixtureCommand, startContractHttpServer } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"

const source = (id: string, transport: unknown): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport },
})
const stdio = (env: Record<string, string> = {}) => ({ type: "stdio", ...fixtureCommand("contract-stdio"), env })

describe("createMcpPlugin", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000 })
  })
  afterAll(() => plugin?.close())

  it("discovers every page and stamps v2", async () => {
    const discovered = await plugin.discover(source("pages", stdio()))
    expect(discovered.ok).toBe(true)
    if (!discovered.ok) return
    expect(discovered.discovery.encoding).toBe("mcp-call-tool-result-v2")
    expect(discovered.discovery.tools.map((t) => t.name)).toEqual([...contractToolNames])
  }, 30_000)

  it("reports each page of a long listing as it is read", async () => {
    const heard: { pages: number; tools: number }[] = []
    const many = { type: "stdio", ...fixtureCommand("many-tools"), env: { TOOL_COUNT: "1050" } }
    const discovered = await plugin.discover(source("many", many), { onProgress: (p) => void heard.push(p) })
    expect(discovered.ok && discovered.discovery.tools).toHaveLength(1050)
    // 100 to a page
    expect(heard).toEqual(
      Array.from({ length: 11 }, (_, i) => ({ pages: i + 1, tools: Math.min(1050, 100 * (i + 1)) })),
    )
  }, 30_000)

  it("reuses one connection for many calls, and reconnects after the server dies", async () => {
    const handle = source("reuse", stdio())
    const ctx = { deadline: Date.now() + 10_000 }
    const first = await plugin.invoke(handle, "echo", { message: "1" }, ctx)
    expect(first).toEqual({ ok: true, raw: { content: [{ type: "text", text: "1" }] } })
    const pids = await Promise.all(Array.from({ length: 20 }, () => plugin.invoke(handle, "pid", {}, ctx)))
    expect(new Set(pids.map((r) => JSON.stringify(r))).size).toBe(1) // one server process answered them all

    const crashed = await plugin.invoke(handle, "crash", {}, ctx)
    expect(crashed).toMatchObject({ ok: false, code: "upstream_unavailable", retryable: true })
    const revived = await plugin.invoke(handle, "pid", {}, ctx)
    expect(revived.ok).toBe(true)
    expect(revived).not.toEqual(pids[0]) // a new process
  }, 30_000)

  it("a call that outlives its timeout is tool_timeout, and the connection stays usable", async () => {
    const handle = source("slow", stdio())
    const hung = await plugin.invoke(handle, "hang", {}, { deadline: Date.now() + 300 })
    expect(hung).toMatchObject({ ok: false, code: "tool_timeout" })
    expect((await plugin.invoke(handle, "echo", { message: "ok" }, { deadline: Date.now() + 10_000 })).ok).toBe(true)
  }, 30_000)

  it("a command that does not exist is a failed discovery naming the cause", async () => {
    const discovered = await plugin.discover(
      source("ghost", { type: "stdio", command: "/nonexistent/server", args: [], env: {} }),
    )
    expect(discovered.ok).toBe(false)
    expect(discovered.ok || discovered.message).toMatch(/ENOENT/)
  })

  it("works over streamable HTTP", async () => {
    const upstream = await startContractHttpServer()
    try {
      const handle = source("http", { type: "http", url: upstream.url, headers: {} })
      const discovered = await plugin.discover(handle)
      expect(discovered.ok && discovered.discovery.tools.length).toBe(contractToolNames.length)
      expect(await plugin.invoke(handle, "echo", { message: "over http" }, { deadline: Date.now() + 10_000 })).toEqual({
        ok: true,
        raw: { content: [{ type: "text", text: "over http" }] },
      })
    } finally {
      await plugin.release("http")
      await upstream.close()
    }
  }, 30_000)
})
