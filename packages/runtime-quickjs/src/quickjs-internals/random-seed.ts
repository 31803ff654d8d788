import type { QuickJSContext, QuickJSWASMModule } from "quickjs-emscripten-core"
import { contextPointer } from "./private-fields.js"

/**
 * Math.random's seed. QuickJS seeds each context from the clock (js_random_init: gettimeofday, which this build
 * reads from Date.now(), so in milliseconds): two sandboxes made in the same millisecond draw the same numbers,
 * and a script can tell when its context was made. Every sandbox is seeded here instead, from
 * crypto.getRandomValues, when it is made and at each snapshot restore; a run with `RunOptions.determinism`
 * then writes its own seed over that one, so that it draws the same numbers as the run it repeats.
 *
 * Math.random in QuickJS is xorshift64* on a 64-bit state in the context's C struct. Its offset there is found
 * once per module, in a throwaway context, as the one 64-bit word a call steps by xorshift64*.
 */

/** how much of the context's C struct is searched for Math.random's state */
const contextScanBytes = 4096

const xorshift64 = (x: bigint) => {
  const mask = (1n << 64n) - 1n
  x ^= x >> 12n
  x ^= (x << 25n) & mask
  x ^= x >> 27n
  return x
}

/** seeds drawn ahead, 256 at a time: a call to getRandomValues per sandbox cost more than the rest of the seeding */
const seeds = new BigUint64Array(256)
let seedsLeft = 0

/** a fresh state; it must never be zero */
const randomSeed = () => {
  if (seedsLeft === 0) {
    crypto.getRandomValues(seeds)
    seedsLeft = seeds.length
  }
  const seed = seeds[--seedsLeft]!
  // a seed is used once
  seeds[seedsLeft] = 0n
  return seed || 1n
}

const offsets = new WeakMap<QuickJSWASMModule, number | undefined>()

const findOffset = (module: QuickJSWASMModule): number | undefined => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  try {
    const pointer = contextPointer(context)
    if (pointer === undefined) return undefined
    const before = new Uint8Array(module.getWasmMemory().buffer).slice(pointer, pointer + contextScanBytes)
    const stepped = context.evalCode("Math.random()")
    if (stepped.error) {
      stepped.error.dispose()
      return undefined
    }
    stepped.value.dispose()
    const after = new DataView(module.getWasmMemory().buffer, pointer, contextScanBytes)
    const was = new DataView(before.buffer)
    const candidates: number[] = []
    for (let offset = 0; offset + 8 <= contextScanBytes; offset += 8) {
      const old = was.getBigUint64(offset, true)
      if (old !== 0n && after.getBigUint64(offset, true) === xorshift64(old)) candidates.push(offset)
    }
    return candidates.length === 1 ? candidates[0] : undefined
  } finally {
    context.dispose()
    runtime.dispose()
  }
}

/** Where Math.random's state sits in a context of `module`, relative to the context's pointer; undefined if not found. */
export const randomStateOffset = (module: QuickJSWASMModule): number | undefined => {
  if (!offsets.has(module)) offsets.set(module, findOffset(module))
  return offsets.get(module)
}

/** Writes `seed` (by default a fresh one; never zero) at `address` (a context's Math.random state). */
export const writeRandomSeed = (module: QuickJSWASMModule, address: number, seed = randomSeed()) => {
  new DataView(module.getWasmMemory().buffer).setBigUint64(address, seed, true)
}

/**
 * Seeds a context's Math.random with `seed` (xorshift64*'s state, not zero), by default a fresh one; false when
 * this module's layout is not the one expected (QuickJS's seed stays).
 */
export const seedMathRandom = (module: QuickJSWASMModule, context: QuickJSContext, seed?: bigint): boolean => {
  const offset = randomStateOffset(module)
  const pointer = contextPointer(context)
  if (offset === undefined || pointer === undefined) return false
  writeRandomSeed(module, pointer + offset, seed)
  return true
}
