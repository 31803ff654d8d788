import { describe, expect, test } from "vitest"
import { createQuickJsRuntime, loadQuickJsModule, runScript } from "../src/index.js"
import { createSandbox, disposeSandbox } from "../src/sandbox.js"
import { expectError, expectValue, noTools, runWith, testLimits } from "./helpers.js"
import { describeCodeRuntimeContract } from "./runtime-contract.js"

describeCodeRuntimeContract("in-thread", () => createQuickJsRuntime())

describe("in-thread runner", () => {
  test("a sandbox has exactly a bare context's globals, less SharedArrayBuffer (and no Atomics), plus tools, console and emit", async () => {
    const module = await loadQuickJsModule()
    const context = module.newContext()
    const bare = context
      .unwrapResult(context.evalCode("JSON.stringify(Object.getOwnPropertyNames(globalThis))"))
      .consume(context.getString)
    context.dispose()
    const run = await runScript(module, "return Object.getOwnPropertyNames(globalThis)", {
      invoke: noTools,
      limits: testLimits,
    })
    const names = expectValue(run.outcome) as string[]
    expect(names.filter((name) => !JSON.parse(bare).includes(name)).sort()).toEqual(["console", "emit", "tools"])
    expect(JSON.parse(bare).filter((name: string) => !names.includes(name))).toEqual(["SharedArrayBuffer"])
    expect(JSON.parse(bare)).not.toContain("Atomics")
    // nothing reaches the removed constructors another way
    const reach = [
      "typeof SharedArrayBuffer",
      "typeof Atomics",
      "typeof globalThis.SharedArrayBuffer",
      "Object.getOwnPropertyNames(Object.getPrototypeOf(new Int8Array(1).buffer)).includes('grow')",
      "typeof new Function('return SharedArrayBuffer')",
      "(() => { try { return typeof new Function('return SharedArrayBuffer')() } catch (e) { return String(e) } })()",
      "(() => { try { return typeof (0, eval)('Atomics') } catch (e) { return String(e) } })()",
      "Reflect.ownKeys(globalThis).filter((k) => typeof k === 'string' && /shared|atomic/i.test(k)).length",
      "new ArrayBuffer(8, { maxByteLength: 16 }).constructor === ArrayBuffer",
    ]
    const reached = expectValue(
      (await runScript(module, `return [${reach.join(", ")}]`, { invoke: noTools, limits: testLimits })).outcome,
    )
    expect(reached).toEqual([
      "undefined",
      "undefined",
      "undefined",
      false,
      "function",
      "ReferenceError: 'SharedArrayBuffer' is not defined",
      "ReferenceError: 'Atomics' is not defined",
      0,
      true,
    ])
  })

  test("every new sandbox draws its own random numbers (QuickJS seeds from a millisecond clock)", async () => {
    const module = await loadQuickJsModule()
    const firsts = new Set<number>()
    for (let made = 0; made < 30; made++) {
      const sandbox = createSandbox(module)
      firsts.add(sandbox.context.getNumber(sandbox.context.unwrapResult(sandbox.context.evalCode("Math.random()"))))
      expect(disposeSandbox(sandbox)).toBe(true)
    }
    expect(firsts.size).toBe(30)
  })

  test("allocating in a promise job keeps the outcome and the module (it once made dispose abort)", async () => {
    // quickjs-emscripten's executePendingJobs read the job's context through a stale view once a job grew the
    // memory, and disposing the runtime then freed a context that did not exist (pending-jobs.ts)
    const runtime = await createQuickJsRuntime()
    const code =
      "Promise.resolve().then(() => { const a = []; for (let i = 0; i < 2e5; i++) a.push({ i }) })\nreturn 'done'"
    const outcome = await runWith(runtime, code, { limits: { memoryBytes: 64 << 20, timeoutMs: 10_000 } })
    expect(expectValue(outcome)).toBe("done")
    expect(runtime.replacedModules).toBe(0)
    expect(expectValue(await runWith(runtime, "return 1 + 1"))).toBe(2)
  })

  test("runScript reports the poisoned module to its caller (the seam a worker pool uses)", async () => {
    const module = await loadQuickJsModule()
    // deeper than V8's own stack on this thread: V8 throws through the wasm frames (below)
    const code = "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)"
    const run = await runScript(module, code, { invoke: noTools, limits: { ...testLimits, stackBytes: 1 << 20 } })
    expect(run.poisoned).toBe(true)
    expect(expectError(run.outcome).code).toBe("stack_overflow")
    const clean = await runScript(await loadQuickJsModule(), "return 1", { invoke: noTools, limits: testLimits })
    expect(clean.poisoned).toBe(false)
  })

  test("a recursion that overflows the host's stack before QuickJS's is stack_overflow, and poisons the module", async () => {
    // On a main thread a 1 MiB QuickJS stack is deeper than V8's own:
    // V8 throws its RangeError through the wasm frames and the module's state is unknown afterwards.
    const runtime = await createQuickJsRuntime()
    const error = expectError(
      await runWith(runtime, "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)", {
        limits: { stackBytes: 1 << 20 },
      }),
    )
    expect(error.code).toBe("stack_overflow")
    expect(runtime.replacedModules).toBe(1)
    expect(expectValue(await runWith(runtime, "return 'next run'"))).toBe("next run")
  })

  test("the module memory cap stops allocations QuickJS does not count (large strings, typed arrays)", async () => {
    const runtime = await createQuickJsRuntime({ memoryCapBytes: 64 << 20 })
    for (const code of [
      "const a = []\nfor (;;) a.push('x'.repeat(1 << 20) + a.length)",
      "const a = []\nfor (;;) a.push(new Uint8Array(1 << 20))",
    ]) {
      const error = expectError(await runWith(runtime, code, { limits: { memoryBytes: 16 << 20, timeoutMs: 10_000 } }))
      expect(error.code).toBe("memory_limit")
    }
    expect(expectValue(await runWith(runtime, "return 'x'.repeat(1 << 20).length"))).toBe(1 << 20)
    expect(runtime.replacedModules).toBe(0)
  })
})
