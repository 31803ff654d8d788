/**
 * src/quickjs-internals/ reaches past quickjs-emscripten's public API: private and protected members, and the
 * layout of QuickJS's C state in the module's memory. No release promises to keep any of it, so this fails,
 * naming what broke, when an upgrade changes a version or any member or layout the folder reads.
 */
import { readFileSync } from "node:fs"
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { beforeAll, describe, expect, test } from "vitest"
import { loadQuickJsModule } from "../src/load-module.js"
import { executePendingJobs, snapshotMemory, testedWith } from "../src/quickjs-internals/index.js"
import { isHostRefTable } from "../src/quickjs-internals/host-ref-table.js"
import {
  contextInternals,
  contextPointer,
  lazyContextHandles,
  runtimeInternals,
  runtimePointer,
} from "../src/quickjs-internals/private-fields.js"
import { randomStateOffset } from "../src/quickjs-internals/random-seed.js"

const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"))
const dependencies: Record<string, string> = readJson("../package.json").dependencies

describe("quickjs-emscripten is the release src/quickjs-internals/ was written against", () => {
  test.each(Object.entries(testedWith))("%s is pinned and installed at exactly %s", (name, version) => {
    expect(dependencies[name], `package.json must pin ${name} to exactly ${version}, the release tested`).toBe(version)
    const installed = readJson(`../node_modules/${name}/package.json`).version
    expect(
      installed,
      `${name} ${installed} is installed, but src/quickjs-internals/ was written against ${version}: check each ` +
        "reach in its README.md against the new release, then update tested-with.ts and package.json together",
    ).toBe(version)
  })
})

describe("each private member src/quickjs-internals/ reads exists with the shape it expects", () => {
  let module: QuickJSWASMModule
  let runtime: QuickJSRuntime
  let context: QuickJSContext
  beforeAll(async () => {
    module = await loadQuickJsModule()
    runtime = module.newRuntime()
    context = runtime.newContext()
  })

  const members: [string, () => unknown][] = [
    ["QuickJSRuntime.rt.value, the JSRuntime's C pointer, is a number", () => runtimePointer(runtime) !== undefined],
    ["QuickJSContext.ctx.value, the JSContext's C pointer, is a number", () => contextPointer(context) !== undefined],
    [
      "QuickJSRuntime.ffi.QTS_ExecutePendingJob is a function of (rt, maxJobs, lastJobContext)",
      () => runtimeInternals(runtime).ffi?.QTS_ExecutePendingJob?.length === 3,
    ],
    [
      "QuickJSRuntime.ffi.QTS_FreeValuePointerRuntime is a function of (rt, value)",
      () => runtimeInternals(runtime).ffi?.QTS_FreeValuePointerRuntime?.length === 2,
    ],
    [
      "QuickJSRuntime.module._malloc and _free are functions",
      () =>
        typeof runtimeInternals(runtime).module?._malloc === "function" &&
        typeof runtimeInternals(runtime).module?._free === "function",
    ],
    [
      "QuickJSContext.getMemory(rt) has heapValueHandle",
      () =>
        typeof contextInternals(context).getMemory?.call(context, runtimePointer(runtime)!).heapValueHandle ===
        "function",
    ],
    [
      "QuickJSRuntime.hostRefs is a HostRefMap of nextId, freelist and groups, and a new host function enters it",
      () => {
        const table = runtimeInternals(runtime).hostRefs
        if (!isHostRefTable(table)) return false
        const before = table.nextId
        context.newFunction("f", () => undefined).dispose()
        return table.nextId !== before
      },
    ],
    [
      "QuickJSRuntime.contextMap is a Map keyed by the context's pointer",
      () => runtimeInternals(runtime).contextMap?.has(contextPointer(context)) === true,
    ],
    ["QuickJSRuntime.context is absent from a runtime made by newRuntime", () => "context" in runtime === false],
    [
      "QuickJSRuntime.scope._disposables.value is a Set",
      () => runtimeInternals(runtime).scope?._disposables?.value instanceof Set,
    ],
    [
      "QuickJSContext.memory.scope._disposables.value is a Set",
      () => contextInternals(context).memory?.scope?._disposables?.value instanceof Set,
    ],
    [
      `QuickJSContext keeps its lazy handles as fields (${lazyContextHandles.join(", ")})`,
      () => lazyContextHandles.every((name) => name in context),
    ],
    [
      "QuickJSWASMModule.getWasmMemory() (experimental) is the module's memory",
      () => module.getWasmMemory().buffer.byteLength >= 16 << 20,
    ],
  ]
  test.each(members)("%s", (_name, holds) => {
    expect(holds()).toBe(true)
  })
})

describe("QuickJS's C state is laid out as src/quickjs-internals/ expects", () => {
  test("Math.random's state is one 64-bit word of the JSContext struct (random-seed.ts)", async () => {
    expect(randomStateOffset(await loadQuickJsModule())).toBeTypeOf("number")
  })

  test("the memory has a static area, an unused stack gap, one sbrk word and one stack-limit word (memory-snapshot.ts)", async () => {
    const module = await loadQuickJsModule()
    const runtime = module.newRuntime()
    const context = runtime.newContext()
    expect(snapshotMemory(module, runtime, context)).toBeDefined()
  })

  test("QTS_ExecutePendingJob runs a job and reports the context it ran in (pending-jobs.ts)", async () => {
    const module = await loadQuickJsModule()
    const runtime = module.newRuntime()
    const context = runtime.newContext()
    context
      .unwrapResult(context.evalCode("globalThis.ran = false; Promise.resolve().then(() => { ran = true })"))
      .dispose()
    expect(executePendingJobs(module, runtime, context)).toEqual({ ok: true })
    expect(context.getProp(context.global, "ran").consume((ran) => context.dump(ran))).toBe(true)
  })
})
