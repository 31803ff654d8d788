/**
 * One sandbox for every run of a module, put back before each run into the very state it was made in: its
 * runtime and context by a snapshot of the module's memory (quickjs-internals/memory-snapshot.ts, which says
 * what is restored and why that is all the state there is), and the host side's own bookkeeping, the bridge's
 * and the globals', with it.
 */
import type { QuickJSWASMModule } from "quickjs-emscripten-core"
import { snapshotMemory } from "./quickjs-internals/index.js"
import type { MemorySnapshot, MemorySnapshotOptions } from "./quickjs-internals/index.js"
import type { Sandbox } from "./sandbox.js"

export interface SandboxSnapshot extends MemorySnapshot {
  readonly sandbox: Sandbox
}

export type SnapshotOptions = Pick<MemorySnapshotOptions, "clearMemory">

/**
 * Takes the snapshot of a sandbox just made in `module`, before any run used it. Undefined when this module's
 * memory or quickjs-emscripten's host side is not laid out as expected: the caller then makes a fresh sandbox
 * for each run.
 */
export const snapshotSandbox = (
  module: QuickJSWASMModule,
  sandbox: Sandbox,
  options: SnapshotOptions = {},
): SandboxSnapshot | undefined => {
  const snapshot = snapshotMemory(module, sandbox.runtime, sandbox.context, {
    ...options,
    resetHost: () => {
      sandbox.bridge.reset()
      sandbox.globals.reset()
    },
  })
  return snapshot && { ...snapshot, sandbox }
}
