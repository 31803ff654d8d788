import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { describeThrown } from "./guest-calls.js"
import type { ErrorDescription } from "./guest-calls.js"
import { installHostBridge } from "./host-bridge.js"
import type { HostBridge } from "./host-bridge.js"
import { preludeSource } from "./prelude/prelude.generated.js"

/**
 * A fresh QuickJS runtime and context with the host functions and the prelude in place, bound to no run
 * yet. It serves exactly one run and is then disposed, never reused. Since compiling the prelude and
 * creating the context are most of a run's fixed cost, a host with idle time (a pool worker between runs)
 * prepares the next sandbox ahead; the run's limits, deadline and tools are applied when it starts.
 */
export interface Sandbox {
  readonly runtime: QuickJSRuntime
  readonly context: QuickJSContext
  readonly bridge: HostBridge
  /** the guest's own JSON.stringify, taken before any script code runs */
  readonly stringify: QuickJSHandle
  /** what the prelude threw (it never should); a run in this sandbox fails with it */
  readonly preludeFailure?: ErrorDescription | null
}

/**
 * Creates a sandbox in `module`. It may throw if QuickJS fails in the host (the module is then poisoned);
 * a prelude that throws inside the guest is reported in `preludeFailure` instead.
 */
export const createSandbox = (module: QuickJSWASMModule): Sandbox => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  const bridge = installHostBridge(context)
  const stringify = context.getProp(context.global, "JSON").consume((json) => context.getProp(json, "stringify"))
  const ran = runPrelude(context, bridge.functions)
  for (const handle of bridge.functions) handle.dispose()
  if (!ran.error) {
    ran.value.dispose()
    return { runtime, context, bridge, stringify }
  }
  const preludeFailure = ran.error.consume((thrown) => describeThrown(context, stringify, thrown))
  return { runtime, context, bridge, stringify, preludeFailure }
}

/** Evaluates the prelude script, whose value is the prelude function, and calls it with the host functions. */
const runPrelude = (context: QuickJSContext, hostFunctions: QuickJSHandle[]) => {
  const evaluated = context.evalCode(preludeSource, "prelude.js", { type: "global", strict: true })
  if (evaluated.error) return evaluated
  return evaluated.value.consume((prelude) => context.callFunction(prelude, context.undefined, ...hostFunctions))
}

/** Frees everything in order; false when QuickJS failed to (the known abort after allocating in a job). */
export const disposeSandbox = (sandbox: Sandbox): boolean => {
  try {
    sandbox.bridge.close()
    sandbox.stringify.dispose()
    sandbox.context.dispose()
    sandbox.runtime.dispose()
    return true
  } catch {
    return false
  }
}
