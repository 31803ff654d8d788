/**
 * One sandbox for every run of a module, put back before each run into the very state it was made in: the
 * parts of the module's WebAssembly memory that hold QuickJS's state are copied back from a snapshot taken
 * when the sandbox was new. Making a runtime and a context and freeing them cost 200–400 µs a run here; the
 * copy (about 250 KB) costs a tenth of that. Each run starts from a runtime and context whose state no script
 * has touched, byte for byte.
 *
 * What the copy covers, and why that is all the state there is:
 * - QuickJS keeps all of its state in the module's linear memory: its static data (the C globals, among them
 *   the allocator's own state and its end of heap) at the bottom, then the C stack, then the heap. The copy
 *   holds the static data and the heap up to its highest byte in use. The stack holds nothing between two
 *   calls into the module, and memory above the heap is free space to the allocator. Both keep whatever a
 *   run left there, as freed memory did when each run had a runtime of its own: QuickJS clears what it
 *   hands a script, so a script never reads such bytes.
 * - The host side keeps a little state too: quickjs-emscripten's table of host functions (a run that turns a
 *   global's accessor into a data property frees the accessor, and with it its entry), the bridge's and the
 *   globals' bookkeeping, and the runtime's interrupt handler. Each is put back as well.
 * - Math.random's state lives in the context: a copy would replay the same numbers in every run, so each
 *   restore seeds it afresh. Its place is found when the snapshot is taken, by watching one call step it.
 *
 * The layout is read off the memory itself (the long run of zeros that is the unused stack), so a module
 * with another layout gets no snapshot (undefined) and its host makes a sandbox per run as before. The
 * host side must make no lasting QuickJS object during a run (a cached handle, a context, a managed
 * lifetime): the copy would take back the memory it points to. restore() checks for each such thing and
 * refuses. Two quickjs-emscripten calls must not be used on a snapshot's sandbox at all, getLength and
 * getOwnPropertyNames: they read through a view of the memory made with the context, which goes stale
 * once a run grows the memory. Host-neutral: nothing here needs Node.
 */
import type { QuickJSWASMModule } from "quickjs-emscripten-core"
import type { Sandbox } from "./sandbox.js"

export interface SandboxSnapshot {
  readonly sandbox: Sandbox
  /** bytes copied back by each restore */
  readonly bytes: number
  /**
   * Puts the module's memory and the sandbox's host-side state back as they were when the snapshot was
   * taken. Call only between runs. It throws when the host side holds state the snapshot cannot put back;
   * the module must then be treated as poisoned.
   */
  restore(): void
}

/** a run of zeros this long, above the static data, is the unused part of the C stack */
const stackGapBytes = 1 << 20
/** copied past the static data: zero-initialised C globals whose value is still zero end there too */
const staticMarginBytes = 64 << 10
/** copied below the first byte in use above the stack, where the heap starts */
const heapMarginBytes = 16 << 10
/** how much of the context's C struct is searched for Math.random's state */
const contextScanBytes = 4096

/** quickjs-emscripten's table of host functions (QuickJSRuntime.hostRefs); internal, hence checked */
interface HostRefTable {
  nextId: number
  freelist: number[]
  groups: Map<number, Map<number, unknown>>
}

const isHostRefTable = (value: unknown): value is HostRefTable => {
  const table = value as Partial<HostRefTable> | undefined
  return typeof table?.nextId === "number" && Array.isArray(table.freelist) && table.groups instanceof Map
}

/** handles quickjs-emscripten makes on first use and keeps; one made during a run would point at freed memory */
const lazyContextHandles = ["_BigInt", "_Symbol", "_SymbolIterator", "_SymbolAsyncIterator"] as const

/** quickjs-emscripten's internals that grow when the host makes a lasting QuickJS object; internal, hence optional */
interface HostSide {
  contextMap?: Map<unknown, unknown>
  context?: unknown
  scope?: { _disposables?: { value?: Set<unknown> } }
}

/** What of the host side must not change between the snapshot and a restore, as a string to compare. */
const hostSideShape = (sandbox: Sandbox): string => {
  const runtime = sandbox.runtime as unknown as HostSide
  const context = sandbox.context as unknown as { memory?: HostSide } & Record<string, unknown>
  return JSON.stringify([
    runtime.contextMap?.size,
    runtime.context === undefined,
    runtime.scope?._disposables?.value?.size,
    context.memory?.scope?._disposables?.value?.size,
    lazyContextHandles.map((name) => context[name] === undefined),
  ])
}

/** Math.random in QuickJS: xorshift64* on a 64-bit state in the context */
const xorshift64 = (x: bigint) => {
  const mask = (1n << 64n) - 1n
  x ^= x >> 12n
  x ^= (x << 25n) & mask
  x ^= x >> 27n
  return x
}

// the state must never be zero
const randomSeed = () => crypto.getRandomValues(new BigUint64Array(1))[0]! || 1n

/**
 * Takes the snapshot of a sandbox just made in `module`, before any run used it. Undefined when this module's
 * memory or quickjs-emscripten's host side is not laid out as expected: the caller then makes a fresh
 * sandbox for each run.
 */
export const snapshotSandbox = (module: QuickJSWASMModule, sandbox: Sandbox): SandboxSnapshot | undefined => {
  const context = sandbox.context as unknown as Record<string, unknown> & { ctx?: { value?: unknown } }
  const hostRefs = (sandbox.runtime as unknown as { hostRefs?: unknown }).hostRefs
  const contextPointer = context.ctx?.value
  if (!isHostRefTable(hostRefs) || typeof contextPointer !== "number") return undefined

  // where Math.random keeps its state: the one 64-bit word of the context that a call steps by xorshift64*
  const memory = () => new Uint8Array(module.getWasmMemory().buffer)
  const before = memory().slice(contextPointer, contextPointer + contextScanBytes)
  const stepped = sandbox.context.evalCode("Math.random()")
  if (stepped.error) {
    stepped.error.dispose()
    return undefined
  }
  stepped.value.dispose()
  const after = new DataView(memory().buffer, contextPointer, contextScanBytes)
  const was = new DataView(before.buffer)
  const candidates: number[] = []
  for (let offset = 0; offset + 8 <= contextScanBytes; offset += 8) {
    const old = was.getBigUint64(offset, true)
    if (old !== 0n && after.getBigUint64(offset, true) === xorshift64(old)) candidates.push(offset)
  }
  if (candidates.length !== 1) return undefined
  const randomStateAt = contextPointer + candidates[0]!

  // the layout: static data, a long run of zeros (the stack nobody used), then the heap up to its last byte in use
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
  const regions = [
    { start: 0, saved: whole.slice(0, staticEnd) },
    { start: heapStart - heapMarginBytes, saved: whole.slice(heapStart - heapMarginBytes, heapEnd) },
  ]

  const refs = { nextId: hostRefs.nextId, freelist: [...hostRefs.freelist], groups: [...hostRefs.groups].map(([id, group]) => [id, [...group]] as const) }
  const shape = hostSideShape(sandbox)

  return {
    sandbox,
    bytes: regions.reduce((total, region) => total + region.saved.length, 0),
    restore() {
      // the host made a lasting QuickJS object during the run: it points at memory the copy is about to take back
      const now = hostSideShape(sandbox)
      if (now !== shape) throw new Error(`the sandbox snapshot cannot be restored: the host side changed during the run (${shape} -> ${now})`)
      // the handler is set again by the next run; removing it writes what the snapshot holds anyway
      sandbox.runtime.removeInterruptHandler()
      const bytes = memory()
      for (const region of regions) bytes.set(region.saved, region.start)
      new DataView(bytes.buffer).setBigUint64(randomStateAt, randomSeed(), true)
      hostRefs.nextId = refs.nextId
      hostRefs.freelist = [...refs.freelist]
      hostRefs.groups = new Map(refs.groups.map(([id, group]) => [id, new Map(group)]))
      sandbox.bridge.reset()
      sandbox.globals.reset()
    },
  }
}
