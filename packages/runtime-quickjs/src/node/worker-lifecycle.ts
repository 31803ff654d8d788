/**
 * The pool's worker threads: spawning them, replacing one (after a kill, a poisoned module, a death, a run that
 * grew its WebAssembly memory past `recycleAboveBytes`, or an idle spell with memory past `trimIdleAboveBytes`:
 * that memory never shrinks, and a replaced worker hands it back to the OS), and backing off when a worker cannot
 * start.
 */
import type { ResourceLimits } from "node:worker_threads"
import type { WorkerConfig } from "./pool-options.js"
import { PoolSlot } from "./pool-slot.js"
import type { SlotEvents } from "./pool-slot.js"

export interface LifecycleEvents extends SlotEvents {
  /** a worker has loaded its QuickJS module and can take runs */
  ready(slot: PoolSlot): void
}

export class WorkerLifecycle {
  readonly slots = new Set<PoolSlot>()
  /** workers terminated and replaced */
  replaced = 0
  private respawnDelayMs = 0
  private closed = false

  constructor(
    private readonly config: WorkerConfig,
    private readonly resourceLimits: ResourceLimits | undefined,
    private readonly events: LifecycleEvents,
  ) {}

  /** after a run that left the worker's WebAssembly memory this big, the worker is replaced */
  mustRecycle(wasmBytes: number): boolean {
    return wasmBytes > this.config.recycleAboveBytes
  }

  /** Starts a worker; it joins the pool through `ready`. Rejects when it cannot start. */
  spawn(replacement: boolean): Promise<void> {
    const slot = new PoolSlot(this.config, this.resourceLimits, this.events)
    this.slots.add(slot)
    return slot.ready.then(
      () => {
        this.respawnDelayMs = 0
        if (this.closed) return void slot.kill()
        this.events.ready(slot)
      },
      (cause: unknown) => {
        this.slots.delete(slot)
        if (replacement && !this.closed) {
          // a worker that cannot start (a broken install) must not spin: back off up to 5 s
          this.respawnDelayMs = Math.min(5_000, Math.max(100, this.respawnDelayMs * 2))
          setTimeout(() => !this.closed && this.spawn(true).catch(() => {}), this.respawnDelayMs).unref()
        }
        throw cause
      },
    )
  }

  /** Takes a worker out of the pool, before its runs are dealt with; false when it was out already. */
  remove(slot: PoolSlot): boolean {
    return this.slots.delete(slot)
  }

  /** Terminates a removed worker and starts its replacement. */
  replace(slot: PoolSlot) {
    this.replaced++
    void slot.kill()
    if (!this.closed) this.spawn(true).catch(() => {})
  }

  async close(): Promise<void> {
    this.closed = true
    const kills = [...this.slots].map((slot) => slot.kill())
    this.slots.clear()
    await Promise.all(kills)
  }
}
