import type { InvokeTool, RunLimits, ToolResult } from "@switchboard/core"
import { expect, test } from "vitest"
import { loadQuickJsModule, runScript } from "../src/index.js"
import { recordingInvoke, testLimits } from "./helpers.js"

test("no outcome leaks a handle: every kind of ending leaves the module clean", async () => {
  // A leaked handle makes JS_FreeRuntime abort, which runScript reports as a poisoned module.
  const module = await loadQuickJsModule()
  const { invoke } = recordingInvoke({ "a.b": () => ({ fine: true }) })
  const never: InvokeTool = () => new Promise<ToolResult>(() => {})
  const controller = new AbortController()
  controller.abort()
  const cases: [string, string, Partial<RunLimits>?, InvokeTool?, AbortSignal?][] = [
    ["ok", "const r = await tools.a.b({}); console.log(r); return r"],
    ["syntax_error", "let = ;"],
    ["syntax_error", "let x = 1; let x = 2"],
    ["runtime_error", "await null; null.x"],
    ["runtime_error", "throw { a: 1 }"],
    ["tool_call_limit", "for (;;) await tools.a.b({})", { maxToolCalls: 2 }],
    ["never_settled", "await new Promise(() => {})"],
    ["timeout", "while (true) {}", { timeoutMs: 50 }],
    ["timeout", "await tools.a.b({})", { timeoutMs: 50 }, never],
    ["memory_limit", "const a = []; for (;;) a.push({ a })", { memoryBytes: 8 << 20, timeoutMs: 10_000 }],
    ["stack_overflow", "const f = (n: number): number => f(n + 1) + 1; f(0)"],
    ["result_not_serializable", "const a: any = []; a.push(a); return a"],
    ["result_too_large", "return 'x'.repeat(1000)", { maxResultBytes: 10 }],
    ["aborted", "return 1", {}, invoke, controller.signal],
    ["ok", "for (let i = 0; i < 100; i++) console.log(i)", { maxLogLines: 5 }],
  ]
  for (const [expected, code, limits, callTool, signal] of cases) {
    const run = await runScript(module, code, {
      invoke: callTool ?? invoke,
      limits: { ...testLimits, ...limits },
      ...(signal ? { signal } : {}),
    })
    expect({ code, result: run.outcome.ok ? "ok" : run.outcome.error.code, poisoned: run.poisoned }).toEqual({
      code,
      result: expected,
      poisoned: false,
    })
  }
}, 30_000)
