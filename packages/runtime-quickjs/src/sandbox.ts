import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import type { TextBuiltins } from "./bounded-text.js"
import { installHostBridge } from "./host-bridge.js"
import type { HostBridge } from "./host-bridge.js"
import { seedMathRandom } from "./quickjs-internals/index.js"
import { installSandboxGlobals } from "./sandbox-globals.js"
import type { SandboxGlobals } from "./sandbox-globals.js"

/**
 * A fresh QuickJS runtime and context with the host functions and the sandbox's globals in place, bound to
 * no run yet. A run sees it only in the state it was made in: either it serves one run and is disposed, or a
 * snapshot taken before its first run puts it back to that state before each next one (sandbox-snapshot.ts).
 * Since creating the context is most of a run's fixed cost, a host with idle time (a pool worker between runs)
 * prepares or restores the next sandbox ahead; the run's limits, deadline and tools are applied when it starts.
 */
export interface Sandbox {
  readonly runtime: QuickJSRuntime
  readonly context: QuickJSContext
  readonly bridge: HostBridge
  /** the guest's own JSON.stringify, taken before any script code runs */
  readonly stringify: QuickJSHandle
  /** the guest's own String and String.prototype.slice, for reading its strings with a bound (bounded-text.ts) */
  readonly text: TextBuiltins
  readonly globals: SandboxGlobals
  /** the other context functions the host holds (JSON.parse, Object.defineProperty, `text`), freed on dispose */
  readonly held: readonly QuickJSHandle[]
}

/**
 * Globals QuickJS defines that a sandbox does not have, deleted before any script runs. SharedArrayBuffer: in
 * this build (no SharedArrayBuffer allocator set) `new SharedArrayBuffer(1, { maxByteLength: n })` allocates
 * one byte and `grow(n)` only raises its length, so the buffer reads and writes n bytes of the module's memory
 * past it, other runs' freed memory among them (quickjs.c js_array_buffer_constructor3 and
 * js_array_buffer_resize). Atomics: no use without shared memory and another thread; the context is made
 * without it (quickjs-emscripten's default intrinsics), and it is deleted too in case a build adds it. Nothing
 * else makes a SharedArrayBuffer: its constructor is the only way to one, reachable only from the global.
 */
export const removedGlobals = ["SharedArrayBuffer", "Atomics"] as const

/** Creates a sandbox in `module`. It may throw if QuickJS fails in the host (the module is then poisoned). */
export const createSandbox = (module: QuickJSWASMModule): Sandbox => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  const member = (object: string, name: string) =>
    context.getProp(context.global, object).consume((owner) => context.getProp(owner, name))
  member("Reflect", "deleteProperty").consume((deleteProperty) => {
    for (const name of removedGlobals) {
      const deleted = context
        .newString(name)
        .consume((key) => context.callFunction(deleteProperty, context.undefined, context.global, key))
      context.unwrapResult(deleted).dispose()
    }
  })
  seedMathRandom(module, context)
  const string = context.getProp(context.global, "String")
  const text: TextBuiltins = {
    string,
    slice: context.getProp(string, "prototype").consume((prototype) => context.getProp(prototype, "slice")),
  }
  const bridge = installHostBridge(context, text)
  const stringify = member("JSON", "stringify")
  const parse = member("JSON", "parse")
  const defineProperty = member("Object", "defineProperty")
  const globals = installSandboxGlobals(
    context,
    bridge.functions,
    { stringify, parse, defineProperty },
    bridge.adoptDate,
  )
  return { runtime, context, bridge, stringify, text, globals, held: [parse, defineProperty, text.string, text.slice] }
}

/** Frees everything in order; false when QuickJS failed to (the known abort after allocating in a job). */
export const disposeSandbox = (sandbox: Sandbox): boolean => {
  try {
    sandbox.bridge.close()
    sandbox.bridge.dispose()
    sandbox.globals.close()
    sandbox.stringify.dispose()
    for (const handle of sandbox.held) handle.dispose()
    sandbox.context.dispose()
    sandbox.runtime.dispose()
    return true
  } catch {
    return false
  }
}
