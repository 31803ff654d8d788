import { describe, expect, test } from "vitest"
import { runtimeTuning } from "./runtime-flags.js"

describe("runtime flags", () => {
  test("each flag sets its limit in the limit's own unit; pool flags set the pool", () => {
    expect(
      runtimeTuning({
        "timeout-ms": "5000",
        "memory-mb": "32",
        "stack-kb": "256",
        "max-tool-calls": "10",
        "max-result-mb": "2",
        "max-result-nodes": "5000",
        "max-tool-result-nodes": "7000",
        "max-log-lines": "50",
        "max-log-kb": "64",
        "max-tool-arg-kb": "256",
        "max-tool-args-in-flight-mb": "2",
        workers: "4",
        queue: "0",
      }),
    ).toEqual({
      ok: true,
      options: {
        limits: {
          timeoutMs: 5000,
          memoryBytes: 32 << 20,
          stackBytes: 256 << 10,
          maxToolCalls: 10,
          maxResultBytes: 2 << 20,
          maxResultNodes: 5000,
          maxLogLines: 50,
          maxLogBytes: 64 << 10,
          maxToolArgBytes: 256 << 10,
          maxToolArgBytesInFlight: 2 << 20,
        },
        workers: 4,
        queue: 0,
        maxToolResultNodes: 7000,
      },
    })
  })

  test("no flags, no options: the defaults stand", () => {
    expect(runtimeTuning({})).toEqual({ ok: true, options: {} })
  })

  test.each([
    [{ "timeout-ms": "soon" }, '--timeout-ms must be a whole number of at least 1 (got "soon")'],
    [{ "memory-mb": "0" }, '--memory-mb must be a whole number of at least 1 (got "0")'],
    [{ workers: "1.5" }, '--workers must be a whole number of at least 1 (got "1.5")'],
    [{ queue: "-1" }, '--queue must be a whole number of at least 0 (got "-1")'],
    [
      { "stack-kb": "8192" },
      '--stack-kb must be at most 4096: the QuickJS build\'s C stack is 5 MiB, and past it every script fails (got "8192")',
    ],
    [{ "stack-kb": "8" }, '--stack-kb must be at least 16: a smaller stack cannot even compile a script (got "8")'],
  ])("%o is refused with a message naming the flag", (values, message) => {
    expect(runtimeTuning(values)).toEqual({ ok: false, message })
  })
})
