import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { describe, expect, test } from "vitest"
import { createQuickJsRuntime, loadQuickJsModule } from "../src/index.js"
import { expectError, expectValue, recordingInvoke, runWith } from "./helpers.js"
import { describeCodeRuntimeContract } from "./runtime-contract.js"

// lib ES2023 declares no WebAssembly; Node provides the global.
declare const WebAssembly: { Module: new (bytes: Uint8Array) => object }

// What a Cloudflare Worker gets from importing the .wasm: a compiled module, never bytes to compile.
const wasmPath = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")
const wasmModule = new WebAssembly.Module(readFileSync(wasmPath))

describeCodeRuntimeContract("in-thread, from a precompiled WebAssembly.Module", () =>
  createQuickJsRuntime({ wasmModule }),
)

describe("a precompiled WebAssembly.Module", () => {
  test("is the module instantiated: one that is not QuickJS fails the load", async () => {
    // the smallest valid module: no imports, no exports
    const empty = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
    await expect(loadQuickJsModule({ wasmModule: empty })).rejects.toThrow()
  })

  test("each load gets a memory of its own, capped by memoryCapBytes", async () => {
    const a = await loadQuickJsModule({ wasmModule, memoryCapBytes: 64 << 20 })
    const b = await loadQuickJsModule({ wasmModule, memoryCapBytes: 64 << 20 })
    expect(a.getWasmMemory()).not.toBe(b.getWasmMemory())
    const runtime = await createQuickJsRuntime({ module: a })
    const error = expectError(
      await runWith(runtime, "const parts = []; for (;;) parts.push(new Uint8Array(8 << 20))", {
        limits: { memoryBytes: 1 << 30 },
      }),
    )
    expect(error.code).toBe("memory_limit")
    expect(a.getWasmMemory().buffer.byteLength).toBeLessThanOrEqual(64 << 20)
  })

  test("a tool call, a value, a CPU deadline", async () => {
    const runtime = await createQuickJsRuntime({ wasmModule })
    const { invoke, calls } = recordingInvoke({ "math.add": (args) => (args as { a: number; b: number }).a + 2 })
    expect(
      expectValue(await runWith(runtime, "const r = await tools.math.add({ a: 1 })\nreturn r.data", { invoke })),
    ).toBe(3)
    expect(calls).toEqual([{ path: "math.add", args: { a: 1 } }])
    expect(expectError(await runWith(runtime, "while (true) {}", { limits: { timeoutMs: 100 } })).code).toBe("timeout")
  })
})
