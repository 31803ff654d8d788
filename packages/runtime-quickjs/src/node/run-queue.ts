/**
 * Which run is where: runs waiting for any worker (a FIFO queue), runs a worker has or is to start, and the
 * claims on runs sent to a busy worker to start after its current one. Until that worker starts such a run,
 * the pool can take it back with a compare-and-swap on the run's claim word (Signal.claims in handoff.ts):
 * whoever swaps first owns the run.
 */
import type { RunError, RunOutcome } from "@switchboard/core"
import { failed } from "./pool-job.js"
import type { Job } from "./pool-job.js"
import type { PoolSlot } from "./pool-slot.js"
import { armQueued, stoppedOutcome } from "./run-deadlines.js"

/** how many of the last runs' durations Retry-After is judged by */
const recentRuns = 32

export class RunQueue {
  /** runs waiting for the next free worker, oldest first */
  readonly queue: Job[] = []
  /** runs started or sent to a worker, by run id (a waiting run too) */
  readonly running = new Map<number, Job>()
  /** the run each busy worker is to start after its current one (see busyWorkerFor) */
  readonly waiting = new Map<PoolSlot, Job>()
  private nextRunId = 0
  /**
   * The last runs' durations, for Retry-After: their median, so that a few runs held to a long deadline do not
   * tell the callers of short runs to come back much later than they need.
   */
  private readonly recentRunMs = new Float64Array(recentRuns).fill(100)
  private recentRunAt = 0

  constructor(
    private readonly queueLimit: number,
    private readonly workers: number,
  ) {}

  /** runs waiting in the queue or at a busy worker: the queue's bound counts both */
  get waitingRuns(): number {
    return this.queue.length + this.waiting.size
  }

  get full(): boolean {
    return this.waitingRuns >= this.queueLimit
  }

  /** Counts how long a run that reached a worker took, for Retry-After. */
  ranFor(ms: number) {
    this.recentRunMs[this.recentRunAt++ % recentRuns] = ms
  }

  overloaded(): RunError {
    const waitingRuns = this.waitingRuns
    // the queue ahead of a caller, and one more run, spread over the workers
    const typicalRunMs = [...this.recentRunMs].sort((a, b) => a - b)[recentRuns >> 1]!
    const drainMs = (typicalRunMs * (waitingRuns + 1)) / this.workers
    const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil(drainMs / 1000)))
    return {
      code: "overloaded",
      message: `every sandbox is busy and ${waitingRuns} executions are waiting (the queue limit): retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    }
  }

  enqueue(job: Job, front = false) {
    if (front) this.queue.unshift(job)
    else this.queue.push(job)
    armQueued(job, (outcome: RunOutcome) => {
      const index = this.queue.indexOf(job)
      if (index !== -1) this.queue.splice(index, 1)
      job.settle(outcome)
    })
  }

  /** Gives the run an id and counts it as the worker's current run, or (`waiting`) as the one to start after it. */
  assign(job: Job, slot: PoolSlot, waiting: boolean): number {
    const runId = ++this.nextRunId
    job.runId = runId
    job.slot = slot
    if (waiting) this.waiting.set(slot, job)
    else slot.runId = runId
    this.running.set(runId, job)
    return runId
  }

  /**
   * With every worker busy, a run goes to a busy worker that has none waiting, to start when its current run is
   * done: the message is then there when the worker finishes, so it never goes to sleep between runs, and the
   * main thread never pays for waking it.
   * Until the worker starts it, the pool can take it back: for a worker that frees up first, at its deadline,
   * on an abort, or when the busy worker is replaced. Undefined when no busy worker can take one.
   */
  busyWorkerFor(slots: Iterable<PoolSlot>): PoolSlot | undefined {
    let target: PoolSlot | undefined
    let targetStarted = Infinity
    for (const slot of slots) {
      const current = slot.runId === undefined ? undefined : this.running.get(slot.runId)
      if (!current || this.waiting.has(slot) || !slot.alive || !slot.mayTakeWaiting) continue
      // the run that started first is likely to end first
      if (current.startedAt < targetStarted) [target, targetStarted] = [slot, current.startedAt]
    }
    return target
  }

  /**
   * Takes back a run sent to a busy worker to start later, waiting or already counted as the worker's current
   * run, unless the worker started it: false then. A worker whose current run it was may be free again.
   */
  takeBack(job: Job): boolean {
    const { slot, runId, claim } = job
    if (!slot || runId === undefined || claim === undefined || !slot.takeBack(runId, claim)) return false
    if (this.waiting.get(slot) === job) this.waiting.delete(slot)
    else if (slot.runId === runId) {
      // the worker skips it when it gets there, and starts the run waiting behind it, if any, as the pool must know
      const behind = this.waiting.get(slot)
      this.waiting.delete(slot)
      slot.runId = behind?.runId
    }
    this.detach(job)
    return true
  }

  /** Forgets which worker a run was given to, so that it can go back to the queue or end. */
  detach(job: Job) {
    if (job.runId !== undefined) this.running.delete(job.runId)
    clearTimeout(job.timer)
    if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort)
    job.runId = job.slot = job.timer = job.onAbort = job.claim = undefined
  }

  /** The worker answered its current run: the run waiting behind it, if any, becomes its current run. */
  promoteWaiting(slot: PoolSlot): Job | undefined {
    const next = this.waiting.get(slot)
    if (!next) return undefined
    this.waiting.delete(slot)
    slot.runId = next.runId
    return next
  }

  /** A waiting run the pool could not take back: the worker started it before the pool heard the run ahead end. */
  startedMeanwhile(job: Job) {
    if (job.slot && this.waiting.get(job.slot) === job) {
      this.waiting.delete(job.slot)
      job.slot.runId = job.runId
    }
  }

  /**
   * The worker is gone: runs it had not started go back to the head of the queue, in order; one it did start
   * (it began just as the run ahead of it ended) is lost with it, failing with `lost`.
   */
  reclaim(slot: PoolSlot, lost: RunError) {
    const unstarted: Job[] = []
    for (const [runId, job] of [...this.running]) {
      if (job.slot !== slot) continue
      if (this.takeBack(job)) unstarted.push(job)
      else {
        this.running.delete(runId)
        clearTimeout(job.timer)
        job.settle(stoppedOutcome(job, lost))
      }
    }
    this.waiting.delete(slot)
    for (const job of unstarted.reverse()) if (!job.settled) this.enqueue(job, true)
  }

  /** Ends every run with `aborted` (the pool is closing). */
  abortAll(error: RunError) {
    for (const job of this.queue.splice(0)) job.settle(failed(error))
    for (const job of this.running.values()) job.settle(failed(error))
    this.running.clear()
    this.waiting.clear()
  }
}
