/**
 * What of quickjs-emscripten's host side grows when the host makes a lasting QuickJS object (a cached handle, a
 * context, a managed lifetime). Such an object points at memory a snapshot's copy takes back, so a restore
 * refuses when any of this changed since the snapshot (memory-snapshot.ts).
 */
import type { QuickJSContext, QuickJSRuntime } from "quickjs-emscripten-core"
import { contextInternals, lazyContextHandles, runtimeInternals } from "./private-fields.js"

/** The host side's shape, as a string to compare. */
export const hostSideShape = (runtime: QuickJSRuntime, context: QuickJSContext): string => {
  const ofRuntime = runtimeInternals(runtime)
  const ofContext = contextInternals(context)
  return JSON.stringify([
    ofRuntime.contextMap?.size,
    ofRuntime.context === undefined,
    ofRuntime.scope?._disposables?.value?.size,
    ofContext.memory?.scope?._disposables?.value?.size,
    lazyContextHandles.map((name) => ofContext[name] === undefined),
  ])
}
