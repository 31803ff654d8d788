import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"

/**
 * A compiled `WebAssembly.Module` of `@jitl/quickjs-wasmfile-release-sync/wasm`. Typed as an object: lib ES2023
 * declares no WebAssembly, and each host (Node's types, workers-types) declares its own Module.
 */
export type QuickJsWasmModule = object

export interface QuickJsModuleOptions {
  /**
   * Hard cap on the module's WebAssembly memory, shared by every run in it (default 512 MiB).
   * QuickJS's own memory limit misses large strings and typed-array bodies in this build (they can grow the
   * memory to its 2 GiB ceiling under a 16 MiB limit); a memory with a fixed maximum makes such an
   * allocation fail inside QuickJS, which reports "out of memory", instead of growing the host.
   */
  memoryCapBytes?: number
  /**
   * The QuickJS build's `.wasm`, already compiled (`@jitl/quickjs-wasmfile-release-sync/wasm`, this package's
   * pinned version). A Cloudflare Worker imports it as a module and must pass it: workerd refuses to compile
   * WebAssembly from bytes. Each load instantiates it afresh, with its own memory. By default the variant
   * reads and compiles its own file.
   */
  wasmModule?: QuickJsWasmModule
}

// lib ES2023 declares no WebAssembly; Node and workerd both provide the global.
declare const WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => never }

const pageBytes = 64 * 1024
/** the variant's own initial size (Emscripten INITIAL_MEMORY): its 5 MB stack and data live there */
const initialBytes = 16 << 20
/** the build's ceiling (its own default Memory has maximum 32768 pages) */
const ceilingBytes = 2 ** 31
export const defaultMemoryCapBytes = 512 << 20

/**
 * Loads the sync release build of QuickJS. Sync, not asyncify: tools cross as promises (newPromise,
 * resolved by the host, then executePendingJobs), which is faster than asyncify and free of its
 * one-suspension-per-module limit.
 * Each call makes a new module with its own memory: call it once per host (or worker), not per run.
 */
export const loadQuickJsModule = (options: QuickJsModuleOptions = {}): Promise<QuickJSWASMModule> => {
  const capBytes = Math.min(ceilingBytes, Math.max(2 * initialBytes, options.memoryCapBytes ?? defaultMemoryCapBytes))
  const variant = newVariant(releaseSyncVariant, {
    // a loader, so that every module gets a memory of its own
    wasmMemory: async () =>
      new WebAssembly.Memory({ initial: initialBytes / pageBytes, maximum: Math.floor(capBytes / pageBytes) }),
    // newVariant hands it to Emscripten's instantiateWasm hook: WebAssembly.instantiate(module, imports), no bytes
    ...(options.wasmModule ? { wasmModule: options.wasmModule } : {}),
  })
  return newQuickJSWASMModuleFromVariant(variant)
}
