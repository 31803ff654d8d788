/**
 * Runs a sandbox's pending jobs (promise reactions). Used instead of quickjs-emscripten 0.32's
 * runtime.executePendingJobs, which reads the context the last job ran in through a view of the memory made
 * before the jobs ran: when a job grows the WebAssembly memory, that view no longer shows the memory, the
 * pointer it reads is stale, and the result is wrapped in a context that does not exist. Every later call
 * on that result (its type, its number, freeing it) then goes through the bogus context, and disposing the
 * runtime frees it as if it were one: the abort after "allocating in a job" (upstream
 * quickjs-emscripten #269). Here the pointer is read through the memory as it is after the jobs ran, and the result belongs
 * to the sandbox's own context, the only one its runtime has.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { contextInternals, contextPointer, runtimeInternals, runtimePointer } from "./private-fields.js"

export type JobsOutcome = { ok: true } | { ok: false; error: QuickJSHandle }

export const executePendingJobs = (
  module: QuickJSWASMModule,
  runtime: QuickJSRuntime,
  context: QuickJSContext,
): JobsOutcome => {
  const { ffi, module: emscripten } = runtimeInternals(runtime)
  const { getMemory } = contextInternals(context)
  const run = ffi?.QTS_ExecutePendingJob
  const free = ffi?.QTS_FreeValuePointerRuntime
  const rtPointer = runtimePointer(runtime)
  const ownContext = contextPointer(context)
  if (
    !run ||
    !free ||
    rtPointer === undefined ||
    ownContext === undefined ||
    !getMemory ||
    !emscripten?._malloc ||
    !emscripten._free
  ) {
    throw new Error("quickjs-emscripten's runtime is not laid out as this version expects")
  }
  const out = emscripten._malloc(4)
  // left as it is when no job ran
  new Int32Array(module.getWasmMemory().buffer, out, 1)[0] = 0
  try {
    const value = run(rtPointer, -1, out)
    const jobContext = new Int32Array(module.getWasmMemory().buffer, out, 1)[0]
    if (jobContext === 0) {
      // no job ran: the value belongs to no context
      free(rtPointer, value)
      return { ok: true }
    }
    // a job in a context the sandbox did not make cannot happen; if it did, nothing of this runtime is sure
    if (jobContext !== ownContext) throw new Error(`a pending job ran in an unknown context (${jobContext})`)
    const result = getMemory.call(context, rtPointer).heapValueHandle(value)
    if (context.typeof(result) === "number") {
      result.dispose()
      return { ok: true }
    }
    return { ok: false, error: result }
  } finally {
    emscripten._free(out)
  }
}
