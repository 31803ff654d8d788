import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"

/**
 * Loads the sync release build of QuickJS. Sync, not asyncify: tools cross as promises
 * (newPromise + executePendingJobs), which is faster and avoids asyncify's one-suspension-per-module limits.
 */
export const loadQuickJsModule = (): Promise<QuickJSWASMModule> => newQuickJSWASMModuleFromVariant(releaseSyncVariant)
