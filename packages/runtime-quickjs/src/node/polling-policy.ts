/**
 * Which idle worker gets the next run, and who may busy-wait for messages (handoff.ts). Waking a sleeping
 * thread costs more than a trivial run, so a side that expects a message soon polls for
 * it; but polling is worth it only while every polling thread, the main thread and the running workers each
 * have a core of their own: otherwise it would take turns with, and slow, the very work it waits for.
 */
import { availableParallelism } from "node:os"
import { idlePollMs } from "./handoff.js"
import type { Job } from "./pool-job.js"
import type { PoolSlot } from "./pool-slot.js"

/**
 * After sending a worker a run or a tool result, or hearing from it, the main thread polls the busy workers
 * this long instead of sleeping until the event loop wakes it (handoff.ts); other events are served meanwhile.
 */
const hotWindowMs = 1
/**
 * After answering a tool call (when allowed to poll), the main thread waits this long in place for the worker's
 * next message: a loop turn costs more than the guest's work between two fast calls. The event loop is held
 * no longer than this.
 */
const nextCallWaitMs = 0.05
/** about what waking a sleeping worker costs: a busy worker ready sooner than that is the better pick */
const wakeUpMs = 0.15

export class PollingPolicy {
  /** the idle worker expected to get the next run (the last to finish) */
  private hotSlot: PoolSlot | undefined
  /** when the hot worker went idle, and a moving average of how long runs then took to come, in ms */
  private hotSince = 0
  private typicalIdleMs = 0
  /** threads that may run at once without taking turns: polling past this would slow the work it waits for */
  private readonly cores = availableParallelism()
  private mainMayPoll = false
  private hotUntil = 0
  private polling = false

  constructor(
    /** the pool's idle workers, oldest first (shared: the pool adds and removes them) */
    private readonly idle: PoolSlot[],
    /** the pool's runs by run id (shared) */
    private readonly running: ReadonlyMap<number, Job>,
    private readonly closed: () => boolean,
  ) {}

  /**
   * Takes the hot worker (the last to finish) if its sandbox is ready, or will be sooner than a sleeping worker
   * wakes (it took `prepareMs` last time); else one with a ready sandbox; else the one idle the longest.
   */
  takeIdle(): PoolSlot | undefined {
    // a gap is counted up to twice the polling time: one long pause must not stop polling for many runs
    if (this.hotSlot)
      this.typicalIdleMs = 0.7 * this.typicalIdleMs + 0.3 * Math.min(2 * idlePollMs, performance.now() - this.hotSince)
    // the worker that finished last is awake: when it will be ready sooner than a sleeping one wakes, it waits less
    const hot = this.hotSlot
    const hotSoon =
      hot !== undefined && (hot.prepared || hot.prepareMs - (performance.now() - this.hotSince) < wakeUpMs)
    let index = hotSoon ? this.idle.indexOf(hot) : -1
    if (index === -1) index = this.idle.findIndex((slot) => slot.prepared)
    return this.idle.splice(Math.max(0, index), 1)[0]
  }

  /** The worker that just finished went idle: it gets the next run, and may poll for it once its sandbox is ready. */
  wentIdle(slot: PoolSlot) {
    this.idle.push(slot)
    this.hotSlot = slot
    this.hotSince = performance.now()
    this.allot()
  }

  /** The worker got a run, or is gone: it is no longer the one expected to get the next. */
  cool(slot: PoolSlot) {
    if (this.hotSlot === slot) this.hotSlot = undefined
  }

  /**
   * Decides who may busy-wait: with one run on two cores, the main thread and that worker poll; with nothing
   * running, the hot idle worker polls for its next run; with every worker busy, nobody does.
   */
  allot() {
    // an idle worker still preparing its next sandbox is busy too
    let preparing = 0
    for (const slot of this.idle) if (!slot.prepared) preparing++
    this.mainMayPoll = this.running.size > 0 && this.running.size + preparing + 1 <= this.cores
    for (const job of this.running.values()) job.slot!.mayPoll = this.mainMayPoll
    // the hot worker polls once it is prepared: it counts as one, beside the main thread
    const othersPreparing = preparing - (this.hotSlot && !this.hotSlot.prepared ? 1 : 0)
    // and only while runs have been coming within the worker's polling time: a sparse caller would only burn it
    const runsComeSoon = this.typicalIdleMs < idlePollMs
    for (const slot of this.idle)
      slot.mayPoll = slot === this.hotSlot && runsComeSoon && this.running.size + othersPreparing + 2 <= this.cores
  }

  /** Polls the busy workers for a while (see hotWindowMs), when allowed. */
  stayHot() {
    // a worker that was preparing at the last allotment may be done by now
    this.allot()
    if (!this.mainMayPoll) return
    this.hotUntil = performance.now() + hotWindowMs
    if (this.polling) return
    this.polling = true
    setImmediate(this.poll)
  }

  /** After a tool result went to the worker: a script between fast calls makes its next one within this wait. */
  awaitNextCall(slot: PoolSlot) {
    if (this.mainMayPoll) slot.handoff.spin(nextCallWaitMs)
  }

  private readonly poll = () => {
    let computing = false
    for (const job of this.running.values()) {
      job.slot?.handoff.drain()
      computing ||= job.callsInHost === 0
    }
    this.allot()
    // a run whose calls all wait on the host (an MCP server, say) will not answer before they do: no polling
    if (this.mainMayPoll && computing && !this.closed() && performance.now() < this.hotUntil) setImmediate(this.poll)
    else this.polling = false
  }
}
