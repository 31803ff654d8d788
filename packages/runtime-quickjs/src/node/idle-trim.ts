/**
 * Replacing workers that stay idle with grown WebAssembly memory. That memory never shrinks: a worker that a large
 * run grew, short of `recycleAboveBytes`, would hold it until replaced for another reason. One idle for `afterMs`
 * with more than `aboveBytes` (and more than it had when it started) is replaced, while no other worker is starting:
 * replacements come one at a time, in a pause, when a new worker is least likely to keep a run waiting.
 */
import type { PoolSlot } from "./pool-slot.js"

export interface IdleTrimOptions {
  aboveBytes: number
  afterMs: number
}

export interface IdleTrimPool {
  /** the worker is idle in the pool now */
  isIdle(slot: PoolSlot): boolean
  /** some worker is still loading its module */
  starting(): boolean
  replace(slot: PoolSlot): void
}

export class IdleTrim {
  /** each grown worker seen going idle: when it last did, and its one timer */
  private readonly watched = new Map<PoolSlot, { idleSince: number; timer: ReturnType<typeof setTimeout> }>()

  constructor(
    private readonly options: IdleTrimOptions,
    private readonly pool: IdleTrimPool,
  ) {}

  /** The worker went idle: watched when its memory is past the bound. */
  wentIdle(slot: PoolSlot) {
    if (slot.wasmBytes <= Math.max(this.options.aboveBytes, slot.readyWasmBytes)) return
    const idleSince = performance.now()
    const watched = this.watched.get(slot)
    if (watched) watched.idleSince = idleSince
    else this.watched.set(slot, { idleSince, timer: this.check(slot, this.options.afterMs) })
  }

  close() {
    for (const { timer } of this.watched.values()) clearTimeout(timer)
    this.watched.clear()
  }

  private check(slot: PoolSlot, afterMs: number) {
    return setTimeout(() => {
      const watched = this.watched.get(slot)
      if (!watched) return
      // busy now, or gone: watched again when it next goes idle
      if (!this.pool.isIdle(slot)) return void this.watched.delete(slot)
      // it ran since, and went idle again later
      const left = watched.idleSince + this.options.afterMs - performance.now()
      if (left > 0) return void (watched.timer = this.check(slot, left))
      if (this.pool.starting()) return void (watched.timer = this.check(slot, this.options.afterMs))
      this.watched.delete(slot)
      this.pool.replace(slot)
    }, afterMs).unref()
  }
}
