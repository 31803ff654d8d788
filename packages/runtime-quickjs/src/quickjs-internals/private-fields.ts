/**
 * quickjs-emscripten 0.32's private and protected members this folder reads, as typed views. Every such read in
 * the package goes through here; test/quickjs-internals.test.ts checks that each member exists with this shape,
 * so an upgrade that moves one fails there, by name. Each member is optional: callers check before use.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core"

/** QuickJSRuntime's protected and private members */
export interface RuntimeInternals {
  /** the JSRuntime's C pointer */
  rt?: { value?: unknown }
  /** the C functions of the module */
  ffi?: {
    QTS_ExecutePendingJob?: (rt: number, maxJobs: number, lastJobContext: number) => number
    QTS_FreeValuePointerRuntime?: (rt: number, value: number) => void
  }
  /** the Emscripten module, for its allocator */
  module?: { _malloc?: (bytes: number) => number; _free?: (pointer: number) => void }
  /** the table of host functions the guest can call (HostRefMap) */
  hostRefs?: unknown
  /** the runtime's contexts by C pointer */
  contextMap?: Map<unknown, unknown>
  /** the context QuickJSWASMModule.newContext makes with a runtime (none here) */
  context?: unknown
  /** lifetimes the runtime frees on dispose */
  scope?: { _disposables?: { value?: Set<unknown> } }
}

/** QuickJSContext's protected and private members */
export interface ContextInternals {
  /** the JSContext's C pointer */
  ctx?: { value?: unknown }
  /** wraps a JSValue pointer the C side returned as a handle of this context */
  getMemory?: (rt: number) => { heapValueHandle(pointer: number): QuickJSHandle }
  /** lifetimes the context frees on dispose */
  memory?: { scope?: { _disposables?: { value?: Set<unknown> } } }
}

/** handles quickjs-emscripten makes on first use and keeps; one made during a run would point at freed memory */
export const lazyContextHandles = ["_BigInt", "_Symbol", "_SymbolIterator", "_SymbolAsyncIterator"] as const

export const runtimeInternals = (runtime: QuickJSRuntime): RuntimeInternals => runtime as unknown as RuntimeInternals

export const contextInternals = (context: QuickJSContext): ContextInternals & Record<string, unknown> =>
  context as unknown as ContextInternals & Record<string, unknown>

/** the runtime's C pointer, or undefined when quickjs-emscripten no longer keeps it where 0.32 did */
export const runtimePointer = (runtime: QuickJSRuntime): number | undefined => {
  const pointer = runtimeInternals(runtime).rt?.value
  return typeof pointer === "number" ? pointer : undefined
}

/** the context's C pointer, or undefined when quickjs-emscripten no longer keeps it where 0.32 did */
export const contextPointer = (context: QuickJSContext): number | undefined => {
  const pointer = contextInternals(context).ctx?.value
  return typeof pointer === "number" ? pointer : undefined
}
