/**
 * A runtime and context put back, before each run, into the very state they were made in: the parts of the
 * module's WebAssembly memory that hold QuickJS's state are copied back from a snapshot taken when they were
 * new, and the memory a run dirtied outside them is zeroed. The restore costs a fraction of making a runtime and a
 * context and freeing them. Each run starts from a runtime and context
 * whose state no script has touched, byte for byte, in a memory that holds nothing of an earlier run.
 *
 * What the restore covers, and why that is all the state there is:
 * - QuickJS keeps all of its state in the module's linear memory: its static data (the C globals, among them
 *   the allocator's own state and emscripten's end of heap, the sbrk pointer) at the bottom, then the C stack
 *   (5 MiB, growing down), then the heap. The copy holds the static data and the heap up to its highest byte
 *   in use when the snapshot was taken; everything above that byte was zero then, and so was the stack below
 *   the part in use.
 * - A run leaves bytes in two other places, which QuickJS does not clear: the heap the allocator took past
 *   the copy (up to where the sbrk pointer stood after the run: the allocator never gives memory back), and
 *   the stack down to the run's deepest frame. Freed memory keeps what was written there, and a script that
 *   can read memory it was not given (a growable SharedArrayBuffer can in this build: see sandbox.ts) reads it. So the
 *   restore zeroes both: the heap from the copy's end to the sbrk pointer as the run left it (read before the
 *   static data is copied back), and the stack from the run's stack limit (QuickJS's own, read from the
 *   runtime's C struct, less `stackSlackBytes` for C frames that do not check it) up to the copy. A trivial
 *   run grows neither much: the zeroing is a few kilobytes of heap and the run's stack limit of stack.
 * - The host side keeps a little state too: quickjs-emscripten's table of host functions (host-ref-table.ts),
 *   the caller's own bookkeeping (`resetHost`), and the runtime's interrupt handler. Each is put back as well.
 * - Math.random's state lives in the context: a copy would replay the same numbers in every run, so each
 *   restore seeds it afresh, and so does the snapshot itself for the first run (random-seed.ts). It is the one
 *   word deliberately not put back (`leftAsIs`).
 *
 * The layout is read off the memory itself (the long run of zeros that is the unused stack; the one static
 * word that moves by what a large allocation takes, the sbrk pointer; the one word of the runtime's struct
 * that a stack size moves, its stack limit), so a module with another layout gets no snapshot (undefined)
 * and its host makes a sandbox per run as before. test/sandbox-snapshot.test.ts compares the whole memory after
 * a restore with the memory at the snapshot, so a layout this code does not know fails there. The host side
 * must make no lasting QuickJS object during a run (a cached handle, a context, a managed lifetime): the copy
 * would take back the memory it points to. restore() checks for each such thing and refuses
 * (host-side-shape.ts). Two quickjs-emscripten calls must not be used on a snapshot's context at all,
 * getLength and getOwnPropertyNames: they read through a view of the memory made with the context, which goes
 * stale once a run grows the memory. Host-neutral: nothing here needs Node.
 */
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { saveHostRefs } from "./host-ref-table.js"
import { hostSideShape } from "./host-side-shape.js"
import { contextPointer, runtimePointer } from "./private-fields.js"
import { randomStateOffset, writeRandomSeed } from "./random-seed.js"

export interface MemorySnapshot {
  /** bytes copied back by each restore */
  readonly bytes: number
  /** the bytes of memory a restore deliberately does not put back as they were, and why */
  readonly leftAsIs: readonly { start: number; length: number; why: string }[]
  /**
   * Puts the module's memory and the host side back as they were when the snapshot was taken. Call only
   * between runs. It throws when the host side holds state the snapshot cannot put back; the module must then
   * be treated as poisoned.
   */
  restore(): void
}

export interface MemorySnapshotOptions {
  /**
   * Zero the memory a run dirtied outside the copy (default true). False is for benchmarks only, to measure
   * what the zeroing costs: without it, freed memory keeps earlier runs' bytes.
   */
  clearMemory?: boolean
  /** puts the caller's own host-side state back, right after the memory (the bridge's, the globals') */
  resetHost?: () => void
}

/** a run of zeros this long, above the static data, is the unused part of the C stack */
const stackGapBytes = 1 << 20
/** copied past the static data: zero-initialised C globals whose value is still zero end there too */
const staticMarginBytes = 64 << 10
/** copied below the first byte in use above the stack, where the heap starts */
const heapMarginBytes = 16 << 10
/**
 * zeroed below the run's stack limit: QuickJS checks the limit where JS calls and its recursive C functions
 * start, so C frames past the last check (raising the stack overflow error itself, a builtin's own calls) go
 * a little deeper (the deepest runs of test/sandbox-snapshot.test.ts need under 4 KiB of it)
 */
const stackSlackBytes = 64 << 10
/** what the probe for the sbrk pointer allocates */
const probeBytes = 2 << 20
/** how much of the runtime's C struct is searched for its stack limit */
const runtimeScanBytes = 1024

/**
 * The static word that moves by what a large allocation takes: emscripten's sbrk pointer. (By at least half of
 * it: the allocator's free space at the top of the heap takes the rest.)
 */
const findSbrk = (
  module: QuickJSWASMModule,
  context: QuickJSContext,
  staticEnd: number,
  heapEnd: number,
): number | undefined => {
  const words = () => new Uint32Array(module.getWasmMemory().buffer)
  const before = words().slice(0, staticEnd / 4)
  const limit = words().length * 4
  const allocated = context.evalCode(`new ArrayBuffer(${probeBytes})`)
  const after = words()
  if (allocated.error) {
    allocated.error.dispose()
    return undefined
  }
  allocated.value.dispose()
  const found: number[] = []
  for (let index = 0; index < before.length; index++) {
    const was = before[index]!
    if (was >= heapEnd && was <= limit && after[index]! >= was + probeBytes / 2) found.push(index * 4)
  }
  return found.length === 1 ? found[0] : undefined
}

/** The word of the runtime's C struct that a larger stack size moves down by as much: QuickJS's stack limit. */
const findStackLimit = (module: QuickJSWASMModule, runtime: QuickJSRuntime, runtimeAt: number): number | undefined => {
  const read = () => new Uint32Array(module.getWasmMemory().buffer, runtimeAt, runtimeScanBytes / 4).slice()
  const step = 64 << 10
  runtime.setMaxStackSize(1 << 20)
  const first = read()
  runtime.setMaxStackSize((1 << 20) + step)
  const second = read()
  const found: number[] = []
  for (let index = 0; index < first.length; index++) if (first[index]! - second[index]! === step) found.push(index * 4)
  return found.length === 1 ? runtimeAt + found[0]! : undefined
}

/**
 * Takes the snapshot of a runtime and context just made in `module` (the module's only ones), before any run
 * used them. Undefined when this module's memory or quickjs-emscripten's host side is not laid out as expected:
 * the caller then makes a fresh runtime and context for each run.
 */
export const snapshotMemory = (
  module: QuickJSWASMModule,
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  options: MemorySnapshotOptions = {},
): MemorySnapshot | undefined => {
  const clearMemory = options.clearMemory ?? true
  const hostRefs = saveHostRefs(runtime)
  const contextAt = contextPointer(context)
  const runtimeAt = runtimePointer(runtime)
  const randomOffset = randomStateOffset(module)
  if (!hostRefs || contextAt === undefined || runtimeAt === undefined || randomOffset === undefined) return undefined
  const randomStateAt = contextAt + randomOffset

  // the layout: static data, a long run of zeros (the stack nobody used), then the heap up to its last byte in use
  const memory = () => new Uint8Array(module.getWasmMemory().buffer)
  const words = new Uint32Array(module.getWasmMemory().buffer)
  let gapStart = -1
  let heapStart = -1
  for (let index = 1024 / 4; index < words.length; index++) {
    if (words[index] === 0) {
      if (gapStart < 0) gapStart = index
    } else if (gapStart >= 0 && (index - gapStart) * 4 >= stackGapBytes) {
      heapStart = index * 4
      break
    } else gapStart = -1
  }
  if (heapStart < 0) return undefined
  const staticEnd = gapStart * 4 + staticMarginBytes
  let last = words.length - 1
  while (last > 0 && words[last] === 0) last--
  const heapEnd = (last + 1) * 4
  const whole = memory()
  const stackTop = heapStart - heapMarginBytes
  const regions = [
    { start: 0, saved: whole.slice(0, staticEnd) },
    { start: stackTop, saved: whole.slice(stackTop, heapEnd) },
  ]
  const shape = hostSideShape(runtime, context)

  // the two words the zeroing reads, found by moving them; the copy then puts back what finding them changed
  const sbrkAt = findSbrk(module, context, staticEnd, heapEnd)
  const stackLimitAt = findStackLimit(module, runtime, runtimeAt)
  const sbrkAtSnapshot = new DataView(regions[0]!.saved.buffer).getUint32(sbrkAt ?? 0, true)

  /** Zeroes what a run may have written outside the copy: the heap it took past it, and its stack. */
  const clear = (bytes: Uint8Array) => {
    const view = new DataView(bytes.buffer)
    const sbrk = Math.min(bytes.length, Math.max(sbrkAtSnapshot, view.getUint32(sbrkAt!, true)))
    if (sbrk > heapEnd) bytes.fill(0, heapEnd, sbrk)
    // a limit of 0 is no limit: the run may have used the whole stack
    const stackLimit = view.getUint32(stackLimitAt!, true)
    const stackFloor = stackLimit === 0 ? staticEnd : Math.max(staticEnd, stackLimit - stackSlackBytes)
    if (stackFloor < stackTop) bytes.fill(0, stackFloor, stackTop)
  }

  const restore = () => {
    // the host made a lasting QuickJS object during the run: it points at memory the copy is about to take back
    const now = hostSideShape(runtime, context)
    if (now !== shape)
      throw new Error(
        `the sandbox snapshot cannot be restored: the host side changed during the run (${shape} -> ${now})`,
      )
    // the handler is set again by the next run; removing it writes what the snapshot holds anyway
    runtime.removeInterruptHandler()
    const bytes = memory()
    // read before the copy puts the sbrk pointer and the stack limit back
    if (clearMemory) clear(bytes)
    for (const region of regions) bytes.set(region.saved, region.start)
    writeRandomSeed(module, randomStateAt)
    hostRefs.restore()
    options.resetHost?.()
  }

  if (sbrkAt === undefined || stackLimitAt === undefined) {
    // the probes changed the memory: put it back before giving up on the snapshot, and clear what they wrote
    const bytes = memory()
    bytes.fill(0, heapEnd)
    bytes.fill(0, staticEnd, stackTop)
    for (const region of regions) bytes.set(region.saved, region.start)
    return undefined
  }
  // the first run starts from the same state as every later one: memory as made, a fresh seed
  restore()
  return {
    bytes: regions.reduce((total, region) => total + region.saved.length, 0),
    leftAsIs: [{ start: randomStateAt, length: 8, why: "Math.random's state, seeded afresh at each restore" }],
    restore,
  }
}
