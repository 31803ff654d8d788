/** One tool call: cancellation through the execution's signal, and how an upstream failure is classified. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { createMcpPlugin } from "../src/node/index.js"
import { callFailureMessage } from "../src/invoke.js"
import type { McpConnection } from "../src/connection.js"
import type { McpSourceConfig } from "../src/config.js"

const source = (id: string): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport: { type: "stdio", ...fixtureCommand("contract-stdio"), env: {} } },
})

describe("calls sharing one execution signal", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000 })
  })
  afterAll(() => plugin?.close())

  it("50 calls on one signal leave no listener behind (no MaxListenersExceededWarning)", async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on("warning", onWarning)
    try {
      const signal = new AbortController().signal
      for (let i = 0; i < 50; i++)
        expect(
          (
            await plugin.invoke(
              source("many"),
              "echo",
              { message: String(i) },
              { deadline: Date.now() + 10_000, signal },
            )
          ).ok,
        ).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 50)) // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning)
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map(String)).toEqual([])
  })

  it("20 calls at once on one signal: no MaxListenersExceededWarning, and an abort ends every one of them", async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on("warning", onWarning)
    try {
      const signal = new AbortController().signal
      const echoes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          plugin.invoke(source("parallel"), "echo", { message: String(i) }, { deadline: Date.now() + 10_000, signal }),
        ),
      )
      expect(echoes.every((answer) => answer.ok)).toBe(true)
      const controller = new AbortController()
      const slow = Array.from({ length: 12 }, () =>
        plugin.invoke(
          source("parallel"),
          "slow",
          { ms: 20_000 },
          { deadline: Date.now() + 30_000, signal: controller.signal },
        ),
      )
      setTimeout(() => controller.abort(), 300)
      expect((await Promise.all(slow)).map((answer) => answer.ok || answer.code)).toEqual(Array(12).fill("aborted"))
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off("warning", onWarning)
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map(String)).toEqual([])
  })

  it("aborting the signal mid-call ends that call with a clear value, and the connection stays usable", async () => {
    const handle = source("abort")
    const controller = new AbortController()
    const started = Date.now()
    const pending = plugin.invoke(
      handle,
      "slow",
      { ms: 20_000 },
      { deadline: Date.now() + 30_000, signal: controller.signal },
    )
    setTimeout(() => controller.abort(), 300)
    const result = await pending
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result).toEqual({
      ok: false,
      code: "aborted",
      message: 'the call to "slow" was cancelled because its execution was aborted',
    })
    expect(
      await plugin.invoke(handle, "slow", { ms: 1 }, { deadline: Date.now() + 10_000, signal: controller.signal }),
    ).toMatchObject({ ok: false, code: "aborted" })
    expect(await plugin.invoke(handle, "echo", { message: "still here" }, { deadline: Date.now() + 10_000 })).toEqual({
      ok: true,
      raw: { content: [{ type: "text", text: "still here" }] },
    })
  })
})

describe("callFailureMessage", () => {
  const open: McpConnection = {
    client: null as never,
    stderrTail: () => "",
    isOpen: () => true,
    overflow: () => undefined,
    lossOf: () => null,
    close: async () => {},
  }
  const config: McpSourceConfig = { transport: { type: "stdio", command: "x", args: [], env: {} } }
  const invalidParams = (message: string) =>
    callFailureMessage(new McpError(ErrorCode.InvalidParams, message), open, "t", config)

  it.each(["Unknown tool: t", "No such tool t", "Tool t not found", "tool named t was NOT FOUND here"])(
    "%j means the catalog is behind",
    (message) => {
      expect(invalidParams(message)).toMatchObject({ code: "tool_not_found", unknownTool: true })
    },
  )

  it.each(["Invalid arguments: a must be a number", "not found: tool", `${"x".repeat(600)} unknown tool`])(
    "%j is an upstream error",
    (message) => {
      expect(invalidParams(message)).toMatchObject({ code: "upstream_error" })
    },
  )

  // 2 MB of text: linear classification takes milliseconds; the old backtracking regex would run for many
  // minutes, so the test's own timeout is the guard (no timing is asserted)
  it("a long upstream message is classified in linear time", { timeout: 20_000 }, () => {
    expect(invalidParams("tool ".repeat(400_000))).toMatchObject({ code: "upstream_error" })
  })
})
