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

export interface SnapshotOptions extends Pick<MemorySnapshotOptions, "clearMemory"> {
  /**
   * Make the sandbox's Date (prelude/date.ts) before the snapshot is taken, so that no run that reads Date pays
   * for it. Without, it is made on each run's first read of it. A pool worker takes its first snapshot without,
   * and takes it again with it made after its first run: making it runs enough of QuickJS for V8 to tier up
   * QuickJS's interpreter at once, which on a loaded machine with few cores would delay the pool's first run;
   * after a run that has happened anyway.
   */
  makeDate?: boolean
}

/**
 * Takes the snapshot of a sandbox just made in `module`, before any run used it, or takes a snapshot's sandbox's
 * again right after a restore (with `makeDate`). Undefined when this module's memory or quickjs-emscripten's host
 * side is not laid out as expected, or Date could not be made: the caller then makes a fresh sandbox for each
 * run (after a failed `makeDate`, with a module whose state is not known).
 */
export const snapshotSandbox = (
  module: QuickJSWASMModule,
  sandbox: Sandbox,
  { makeDate = false, ...options }: SnapshotOptions = {},
): SandboxSnapshot | undefined => {
  sandbox.globals.replaceDate()
  if (makeDate && !sandbox.globals.makeDate()) return undefined
  const snapshot = snapshotMemory(module, sandbox.runtime, sandbox.context, {
    ...options,
    resetHost: () => {
      sandbox.bridge.reset()
      sandbox.globals.reset()
    },
  })
  return snapshot && { ...snapshot, sandbox }
}
