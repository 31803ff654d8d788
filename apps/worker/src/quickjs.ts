/**
 * QuickJS for this isolate: the module is compiled by the platform from the imported `.wasm` (a Worker may not
 * compile WebAssembly from bytes) and instantiated once per isolate. Sharing it across requests is allowed: it
 * holds no I/O, and each run gets a runtime and context of its own inside it.
 */
import wasmModule from "@jitl/quickjs-wasmfile-release-sync/wasm"
import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import type { QuickJsRuntime } from "@switchboard/runtime-quickjs"
import { WORKER_MODULE_MEMORY_BYTES } from "./limits.js"

let shared: Promise<QuickJsRuntime> | undefined

export const isolateRuntime = (): Promise<QuickJsRuntime> => {
  shared ??= createQuickJsRuntime({ wasmModule, memoryCapBytes: WORKER_MODULE_MEMORY_BYTES }).catch((cause) => {
    shared = undefined // the next request tries again
    throw cause
  })
  return shared
}
