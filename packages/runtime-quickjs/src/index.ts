/**
 * @switchboard/runtime-quickjs — the CodeRuntime seam on quickjs-emscripten (sync wasm build).
 * It runs a TypeScript/JavaScript script in a fresh QuickJS runtime with `tools`, `console` and `emit` only;
 * it knows nothing of catalogs, encodings or HTTP, and the per-run code uses no Node built-ins.
 */
export { createQuickJsRuntime } from "./create-quickjs-runtime.js"
export type { QuickJsRuntime, QuickJsRuntimeOptions } from "./create-quickjs-runtime.js"
export { runScript } from "./run-script.js"
export { maxStackBytes } from "./stack-limit.js"
export type { ScriptRun, ScriptRunOptions } from "./run-script.js"
export type { InvokeJson } from "./host-bridge.js"
export type { LogSink } from "./log-buffer.js"
export { defaultMemoryCapBytes, loadQuickJsModule } from "./load-module.js"
export type { QuickJsModuleOptions, QuickJsWasmModule } from "./load-module.js"
export { interruptCalibration } from "./interrupt-budget.js"
