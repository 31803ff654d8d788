// wrangler imports a `.wasm` as a compiled WebAssembly.Module (the CompiledWasm rule)
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const module: WebAssembly.Module
  export default module
}
