/**
 * A tool result is bounded by its count of keys and elements, counted on the server's line before it is parsed:
 * past the bound the call answers `tool_result_too_large` naming the bound, the line is never parsed, and the
 * connection stays for the next call. A tools/list past the same count is not a tool result and is read whole.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import type { FixtureName } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"

const source = (id: string, fixture: FixtureName, env: Record<string, string> = {}): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport: { type: "stdio", ...fixtureCommand(fixture), env } },
})
const ctx = () => ({ deadline: Date.now() + 30_000 })

describe("a tool result past maxToolResultNodes", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 30_000, maxToolResultNodes: 1_000 })
  })
  afterAll(() => plugin?.close())

  it("answers tool_result_too_large naming the bound, and the next call on the connection works", async () => {
    const big = source("big", "big-values")
    const under = await plugin.invoke(big, "many_keys", { keys: 900 }, ctx())
    expect(under.ok).toBe(true)
    const over = await plugin.invoke(big, "many_keys", { keys: 5_000 }, ctx())
    expect(over).toMatchObject({ ok: false, code: "tool_result_too_large" })
    expect(over.ok === false && over.message).toMatch(/"many_keys".*more than 1,000 keys and elements/)
    expect(over.ok === false && over.message).toMatch(/maxToolResultNodes/)
    const after = await plugin.invoke(big, "many_keys", { keys: 3 }, ctx())
    expect(after).toMatchObject({ ok: true, raw: { structuredContent: { k0: 0, k1: 1, k2: 2 } } })
  })

  it("a tools/list of more keys and elements than the bound is read whole", async () => {
    const listed = await plugin.discover(source("many", "many-tools", { TOOL_COUNT: "300" }))
    expect(listed.ok && listed.discovery.tools.length).toBe(300)
  })
})

describe("the default bound", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 30_000 })
  })
  afterAll(() => plugin?.close())

  it("a 400,000-key structuredContent is refused; 40,000 keys pass", async () => {
    const big = source("big", "big-values")
    expect((await plugin.invoke(big, "many_keys", { keys: 40_000 }, ctx())).ok).toBe(true)
    const over = await plugin.invoke(big, "many_keys", { keys: 400_000 }, ctx())
    expect(over).toMatchObject({ ok: false, code: "tool_result_too_large" })
  })
})
