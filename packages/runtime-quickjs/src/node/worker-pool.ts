import { availableParallelism } from "node:os"
import type { ResourceLimits } from "node:worker_threads"
import { defaultLimits } from "@switchboard/core"
import type { CodeRuntime, RunError, RunLimits, RunOptions, RunOutcome, ToolResult } from "@switchboard/core"
import { runErrors } from "../run-errors.js"
import { idlePollMs } from "./handoff.js"
import { logMirrorBytes } from "./log-mirror.js"
import { PoolSlot } from "./pool-slot.js"
import type { FromWorker } from "./protocol.js"

/** a worker whose WebAssembly memory passed this after a run is replaced (see WorkerPoolOptions) */
const DEFAULT_RECYCLE_ABOVE_BYTES = 48 << 20

/** how many of the last runs' durations Retry-After is judged by */
const RECENT_RUNS = 32

export interface WorkerPoolOptions {
  /** worker threads, each running one execution at a time (default: the CPU count, at least 2) */
  size?: number
  /** executions waiting for a worker; past it a run fails at once with `overloaded` (default 64, at least 8 per worker) */
  queueLimit?: number
  /**
   * The hard ceiling of each worker's WebAssembly memory (default 128 MiB, twice the default memory limit).
   * QuickJS's own limit misses large strings and typed arrays; an allocation past this ceiling fails as
   * `memory_limit` whatever it is.
   */
  memoryCapBytes?: number
  /**
   * after a run, a worker whose WebAssembly memory grew past this is replaced, since that memory never shrinks
   * (default: 48 MiB, the module's 16 MiB and 32 MiB grown, or half the ceiling if that is less: a 40 MB thrown
   * string kept RSS 42–50 MB over idle under the old default of half the 128 MiB ceiling)
   */
  recycleAboveBytes?: number
  /** how long past its deadline a run may take to end by itself before its worker is killed (default 20 ms) */
  killGraceMs?: number
  /** V8 limits of each worker thread (its own heap, not the QuickJS memory) */
  resourceLimits?: ResourceLimits
  /**
   * The largest log a run may keep (default: the default limits). Each worker keeps a copy of its run's log
   * this big in memory shared with the pool, so a run whose worker is killed still returns what it logged.
   */
  logLimits?: Pick<RunLimits, "maxLogLines" | "maxLogBytes">
  /**
   * Each worker runs every script in one sandbox that it puts back, byte for byte, into the state it was made
   * in after each run, instead of making and disposing a sandbox per run (sandbox-snapshot.ts; default true).
   * A worker whose module does not allow it makes a fresh one per run, as with false.
   */
  snapshots?: boolean
  /**
   * For benchmarks only (default true): false leaves out the zeroing of what a run dirtied outside the snapshot
   * (the heap it took and its stack) at each restore, to measure what that costs. Freed memory then keeps
   * earlier runs' bytes; no server may run so.
   */
  clearMemory?: boolean
  /**
   * For tests of the pool's recovery only: each worker, right after answering a run, fails as if putting its
   * sandbox back (or disposing it) had failed. No script can cause that, so nothing else reaches the path.
   */
  failAfterAnswer?: boolean
}

export interface WorkerPoolStats {
  size: number
  idle: number
  busy: number
  starting: number
  queued: number
  /** workers terminated and replaced: deadline kills, poisoned modules, memory recycling, deaths */
  replaced: number
}

export interface WorkerPoolRuntime extends CodeRuntime {
  stats(): WorkerPoolStats
  /** Ends every run (`aborted`), refuses new ones and terminates the workers. */
  close(): Promise<void>
}

interface Job {
  code: string
  options: RunOptions
  /** the run's wall-clock deadline, counted from the moment it reached the pool */
  deadline: number
  startedAt: number
  runId?: number
  slot?: PoolSlot
  timer?: ReturnType<typeof setTimeout> | undefined
  onAbort?: (() => void) | undefined
  /** the caller has its outcome */
  settled?: boolean
  /** tool calls of this run the host is answering: while there are any, the worker is not the one to wait for */
  callsInHost: number
  /** sent to a busy worker to start later: the index of its claim word (Signal.claims) */
  claim?: number | undefined
  settle(outcome: RunOutcome): void
}

const failed = (error: RunError): RunOutcome => ({ ok: false, error, logs: [] })
const hostFailureJson = JSON.stringify({
  ok: false,
  error: { code: "internal_error", message: "the tool call failed in the host" },
} satisfies ToolResult)
/** A tool call's result as JSON text; never rejects. */
const answerJson = async (invoke: RunOptions["invoke"], path: string, argsJson: string): Promise<string> => {
  try {
    return JSON.stringify(await invoke(path, JSON.parse(argsJson))) ?? hostFailureJson
  } catch {
    // invoke never rejects for an expected failure; a host error may carry secrets, so it stays here
    return hostFailureJson
  }
}
/** how long an aborted run's worker may take to end the run by itself before it is killed */
const abortGraceMs = 250
/** setTimeout's ceiling */
const maxTimerMs = 2 ** 31 - 1
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
/** about what waking a sleeping worker costs here (35–200 µs): a busy worker ready sooner than that is the better pick */
const wakeUpMs = 0.15

/**
 * A CodeRuntime on a pool of worker threads (Node only). The main thread never runs guest code: it
 * queues runs, answers tool calls and enforces the hard limits by terminating a worker, which stops
 * even a loop inside one long builtin and hands the worker's memory back to the OS. The pool is warm
 * when this resolves (every worker has loaded its QuickJS module).
 */
export const createWorkerPoolRuntime = async (options: WorkerPoolOptions = {}): Promise<WorkerPoolRuntime> => {
  const pool = new WorkerPool(options)
  await pool.start()
  return pool
}

class WorkerPool implements WorkerPoolRuntime {
  private readonly size: number
  private readonly queueLimit: number
  private readonly memoryCapBytes: number
  private readonly recycleAboveBytes: number
  private readonly killGraceMs: number
  private readonly logMirrorBytes: number
  private readonly slots = new Set<PoolSlot>()
  private readonly idle: PoolSlot[] = []
  /** runs started or sent to a worker, by run id (a waiting run too) */
  private readonly running = new Map<number, Job>()
  /** the run each busy worker is to start after its current one (see sendWaiting) */
  private readonly waiting = new Map<PoolSlot, Job>()
  private readonly queue: Job[] = []
  private nextRunId = 0
  private replaced = 0
  private closed = false
  /**
   * The last runs' durations, for Retry-After: their median, so that a few runs held to a 30 s deadline do not
   * tell callers of 50 ms runs to come back in a minute (a moving average did).
   */
  private readonly recentRunMs = new Float64Array(RECENT_RUNS).fill(100)
  private recentRunAt = 0
  private respawnDelayMs = 0
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

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = Math.max(1, options.size ?? Math.max(2, availableParallelism()))
    this.queueLimit = Math.max(0, options.queueLimit ?? Math.max(64, 8 * this.size))
    this.memoryCapBytes = options.memoryCapBytes ?? 128 << 20
    this.recycleAboveBytes = options.recycleAboveBytes ?? Math.min(DEFAULT_RECYCLE_ABOVE_BYTES, this.memoryCapBytes / 2)
    this.killGraceMs = options.killGraceMs ?? 20
    this.logMirrorBytes = logMirrorBytes(options.logLimits ?? defaultLimits)
  }

  async start(): Promise<void> {
    const starting = Array.from({ length: this.size }, () => this.spawn(false))
    const results = await Promise.allSettled(starting)
    const failure = results.find((result) => result.status === "rejected")
    if (failure) {
      await this.close()
      throw new Error(`the QuickJS worker pool could not start: ${String((failure as PromiseRejectedResult).reason)}`)
    }
  }

  stats(): WorkerPoolStats {
    const starting = [...this.slots].filter((slot) => slot.runId === undefined && !this.idle.includes(slot)).length
    const waiting = this.waiting.size
    return {
      size: this.size,
      idle: this.idle.length,
      busy: this.running.size - waiting,
      starting,
      queued: this.queue.length + waiting,
      replaced: this.replaced,
    }
  }

  run(code: string, options: RunOptions): Promise<RunOutcome> {
    if (this.closed) return Promise.resolve(failed(runErrors.internal("the worker pool is closed")))
    if (options.signal?.aborted) return Promise.resolve(failed(runErrors.aborted()))
    return new Promise<RunOutcome>((resolve) => {
      const startedAt = Date.now()
      const job: Job = {
        code,
        options,
        startedAt,
        deadline: startedAt + options.limits.timeoutMs,
        settle: resolve,
        callsInHost: 0,
      }
      job.settle = (outcome) => {
        job.settle = () => {}
        job.settled = true
        if (job.timer) clearTimeout(job.timer)
        if (job.onAbort) options.signal?.removeEventListener("abort", job.onAbort)
        if (job.runId !== undefined) this.recentRunMs[this.recentRunAt++ % RECENT_RUNS] = Date.now() - startedAt
        resolve(outcome)
      }
      const slot = this.takeIdle()
      if (slot) return this.begin(slot, job)
      // runs sent to busy workers to wait count against the queue's bound
      if (this.queue.length + this.waiting.size >= this.queueLimit) return job.settle(failed(this.overloaded()))
      if (this.queue.length === 0 && this.sendWaiting(job)) return
      this.enqueue(job)
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.settle(failed(runErrors.aborted()))
    for (const job of this.running.values()) job.settle(failed(runErrors.aborted()))
    this.running.clear()
    this.waiting.clear()
    this.idle.length = 0
    const kills = [...this.slots].map((slot) => slot.kill())
    this.slots.clear()
    await Promise.all(kills)
  }

  /**
   * The hot worker (the last to finish) if its sandbox is ready, or will be sooner than a sleeping worker wakes
   * (it took `prepareMs` last time); else one with a ready sandbox; else the one idle the longest.
   */
  private takeIdle(): PoolSlot | undefined {
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

  /**
   * Decides who may busy-wait (handoff.ts): polling is worth it only while every polling thread, the main
   * thread and the running workers each have a core of their own; otherwise it would take turns with, and
   * slow, the very work it waits for. So with one run on two cores, the main thread and that worker poll;
   * with nothing running, the hot idle worker polls for its next run; with every worker busy, nobody does.
   */
  private allotPolling() {
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
  private stayHot() {
    // a worker that was preparing at the last allotment may be done by now
    this.allotPolling()
    if (!this.mainMayPoll) return
    this.hotUntil = performance.now() + hotWindowMs
    if (this.polling) return
    this.polling = true
    setImmediate(this.poll)
  }

  private readonly poll = () => {
    let computing = false
    for (const job of this.running.values()) {
      job.slot?.handoff.drain()
      computing ||= job.callsInHost === 0
    }
    this.allotPolling()
    // a run whose calls all wait on the host (an MCP server, say) will not answer before they do: no polling
    if (this.mainMayPoll && computing && !this.closed && performance.now() < this.hotUntil) setImmediate(this.poll)
    else this.polling = false
  }

  private overloaded(): RunError {
    const waitingRuns = this.queue.length + this.waiting.size
    // the queue ahead of a caller, and one more run, spread over the workers
    const typicalRunMs = [...this.recentRunMs].sort((a, b) => a - b)[RECENT_RUNS >> 1]!
    const drainMs = (typicalRunMs * (waitingRuns + 1)) / this.size
    const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil(drainMs / 1000)))
    return {
      code: "overloaded",
      message: `every sandbox is busy and ${waitingRuns} executions are waiting (the queue limit): retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    }
  }

  private enqueue(job: Job, front = false) {
    if (front) this.queue.unshift(job)
    else this.queue.push(job)
    const leave = (outcome: RunOutcome) => {
      const index = this.queue.indexOf(job)
      if (index !== -1) this.queue.splice(index, 1)
      job.settle(outcome)
    }
    job.timer = setTimeout(
      () => leave(failed(runErrors.timeout(job.options.limits))),
      Math.min(maxTimerMs, job.deadline - Date.now()),
    )
    job.onAbort = () => leave(failed(runErrors.aborted()))
    job.options.signal?.addEventListener("abort", job.onAbort)
  }

  /**
   * With every worker busy, a run goes to a busy worker that has none waiting, to start when its current run is
   * done: the message is then there when the worker finishes, so it never goes to sleep between runs, and the
   * main thread never pays for waking it (under load that wake-up cost the main thread about 60 µs a run here).
   * Until the worker starts it, the pool can take it back (Signal.claims): for a worker that frees up first,
   * at its deadline, on an abort, or when the busy worker is replaced.
   */
  private sendWaiting(job: Job): boolean {
    let target: PoolSlot | undefined
    let targetStarted = Infinity
    for (const slot of this.slots) {
      const current = slot.runId === undefined ? undefined : this.running.get(slot.runId)
      if (!current || this.waiting.has(slot) || !slot.alive || !slot.mayTakeWaiting) continue
      // the run that started first is likely to end first
      if (current.startedAt < targetStarted) [target, targetStarted] = [slot, current.startedAt]
    }
    if (!target) return false
    this.begin(target, job, true)
    return true
  }

  /**
   * Takes back a run sent to a busy worker to start later, waiting or already counted as the worker's current
   * run, unless the worker started it: false then. A worker whose current run it was is free again.
   */
  private takeBack(job: Job): boolean {
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
    // with nothing left for it, the worker is free: the next run may go there now
    if (slot.runId === undefined && this.slots.has(slot) && !this.idle.includes(slot)) this.release(slot)
    return true
  }

  /** Forgets which worker a run was given to, so that it can go back to the queue or end. */
  private detach(job: Job) {
    if (job.runId !== undefined) this.running.delete(job.runId)
    clearTimeout(job.timer)
    if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort)
    job.runId = job.slot = job.timer = job.onAbort = job.claim = undefined
  }

  private begin(slot: PoolSlot, job: Job, waiting = false) {
    if (job.timer) clearTimeout(job.timer)
    if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort)
    const remaining = job.deadline - Date.now()
    if (remaining <= 0) {
      job.settle(failed(runErrors.timeout(job.options.limits)))
      if (!waiting) this.release(slot)
      return
    }
    const runId = ++this.nextRunId
    job.runId = runId
    job.slot = slot
    if (waiting) this.waiting.set(slot, job)
    else slot.runId = runId
    this.running.set(runId, job)
    // At the deadline a run the worker has not started is taken back; one it has gets a grace to end by itself,
    // then the worker is killed: an interrupt handler cannot stop a builtin.
    const timeout = () => runErrors.timeout(job.options.limits)
    const atDeadline = () => {
      if (this.takeBack(job)) return job.settle(failed(timeout()))
      job.timer = setTimeout(() => this.kill(job, timeout()), this.killGraceMs)
    }
    job.timer = setTimeout(atDeadline, Math.min(maxTimerMs, remaining))
    job.onAbort = () => {
      // a run the worker has not started is only taken back
      if (this.takeBack(job)) return job.settle(failed(runErrors.aborted()))
      // The caller is gone: it hears `aborted` now. The worker gets a while to end the run by itself
      // (a run waiting on a tool does at once) before it is killed, since a kill costs a respawn.
      slot.post({ type: "abort", runId })
      job.settle(failed(runErrors.aborted()))
      job.timer = setTimeout(() => this.kill(job, runErrors.aborted()), abortGraceMs)
    }
    job.options.signal?.addEventListener("abort", job.onAbort)
    const limits = { ...job.options.limits, timeoutMs: remaining }
    if (waiting) {
      // the callers checked mayTakeWaiting
      job.claim = slot.markWaiting(runId)!
      return slot.post({ type: "run", runId, code: job.code, limits, claim: job.claim, sentAt: Date.now() })
    }
    if (this.hotSlot === slot) this.hotSlot = undefined
    // a worker still preparing its next sandbox holds the run until then: sentAt lets it count that wait
    slot.post({ type: "run", runId, code: job.code, limits, sentAt: Date.now() })
    this.stayHot()
  }

  private onMessage(slot: PoolSlot, message: FromWorker) {
    if (message.type === "ready") return
    if (message.type === "poisoned") return this.onPoisoned(slot)
    const job = this.running.get(message.runId)
    // a message about a run that already ended (killed, aborted) is dropped
    if (!job || job.slot !== slot) return
    if (message.type === "invoke") return this.invoke(slot, job, message)
    this.running.delete(message.runId)
    clearTimeout(job.timer)
    slot.runId = undefined
    slot.wasmBytes = message.wasmBytes
    const { outcome } = message
    // the worker saw what was left of the deadline; the error names the limit the caller set
    if (!outcome.ok && outcome.error.code === "timeout") outcome.error = runErrors.timeout(job.options.limits)
    job.settle(outcome)
    if (message.poisoned || message.wasmBytes > this.recycleAboveBytes) return this.replace(slot)
    const next = this.waiting.get(slot)
    if (!next) return this.release(slot)
    // the worker starts its waiting run by itself once its next sandbox is ready (the pool may still take it
    // back until then: a claim word each); the next run in the queue may wait behind it
    this.waiting.delete(slot)
    slot.runId = next.runId
    if (!slot.mayTakeWaiting) return
    const queued = this.queue.shift()
    if (queued) this.begin(slot, queued, true)
  }

  private invoke(slot: PoolSlot, job: Job, message: Extract<FromWorker, { type: "invoke" }>) {
    const { runId, callId, path, argsJson } = message
    const received = performance.now()
    job.callsInHost++
    const answer = (resultJson: string) => {
      job.callsInHost--
      // the run may have ended while the tool worked: its result goes nowhere
      if (slot.runId !== runId) return
      slot.post({ type: "result", runId, callId, resultJson, hostMs: performance.now() - received })
      this.stayHot()
      // a script between fast calls makes its next one within this time: take it here, not a loop turn later
      if (this.mainMayPoll) slot.handoff.spin(nextCallWaitMs)
    }
    void answerJson(job.options.invoke, path, argsJson).then(answer)
  }

  private onDied(slot: PoolSlot, cause: unknown) {
    const job = slot.runId === undefined ? undefined : this.running.get(slot.runId)
    if (!job) return this.replace(slot)
    const outOfMemory = (cause as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY"
    const error = outOfMemory
      ? runErrors.memoryLimit(job.options.limits)
      : runErrors.internal("the sandbox worker stopped unexpectedly")
    // a run sent to wait may not have started: replace() then puts it back in the queue, else it fails with this
    if (job.claim === undefined) this.kill(job, error)
    else this.replace(slot, error)
  }

  /**
   * The worker's module failed after it answered its last run (disposing that run's sandbox, or preparing
   * the next). A run sent to it since never started there: it goes back to the head of the queue.
   */
  private onPoisoned(slot: PoolSlot) {
    const job = slot.runId === undefined ? undefined : this.running.get(slot.runId)
    // the current run never started (the worker failed after answering the run before it); one sent to wait is
    // put back by replace(), with any waiting behind it, and this one goes ahead of them
    const unstarted = job && job.slot === slot && job.claim === undefined ? job : undefined
    if (unstarted) {
      this.detach(unstarted)
      slot.runId = undefined
    }
    this.replace(slot)
    if (unstarted && !unstarted.settled) this.enqueue(unstarted, true)
    const idle = this.idle.shift()
    if (idle) this.release(idle)
  }

  /** Ends a run at once and replaces its worker (a run the worker has not started is only taken back). */
  private kill(job: Job, error: RunError) {
    // what the worker already sent is heard first: the run ahead of this one, or this one, may have ended
    job.slot?.handoff.drain()
    if (job.runId === undefined || this.running.get(job.runId) !== job) return
    if (this.takeBack(job)) return job.settle(failed(error))
    if (job.slot && this.waiting.get(job.slot) === job) {
      // the worker started it just now, before the pool heard that the run ahead of it was done
      this.waiting.delete(job.slot)
      job.slot.runId = job.runId
    }
    this.running.delete(job.runId)
    this.allotPolling()
    job.settle(this.stopped(job, error))
    if (job.slot) this.replace(job.slot)
  }

  /** A run its worker was killed in fails with what it had logged by then (the worker's log mirror). */
  private stopped(job: Job, error: RunError): RunOutcome {
    const logs = job.slot && job.runId !== undefined ? job.slot.logsOf(job.runId, job.options.limits) : undefined
    return { ok: false, error, logs: logs ?? [] }
  }

  private release(slot: PoolSlot) {
    if (this.closed || !slot.alive) return
    // a run waiting behind another worker's run came before any queued one: it goes first, here
    for (const job of this.waiting.values()) {
      if (this.queue.length > 0 && this.queue[0]!.startedAt < job.startedAt) break
      if (this.takeBack(job)) return this.begin(slot, job)
    }
    const next = this.queue.shift()
    if (next) return this.begin(slot, next)
    this.idle.push(slot)
    // the worker that just finished gets the next run: it may poll for it once its next sandbox is ready
    this.hotSlot = slot
    this.hotSince = performance.now()
    this.allotPolling()
  }

  private replace(slot: PoolSlot, lost: RunError = runErrors.internal("the sandbox worker stopped unexpectedly")) {
    if (!this.slots.delete(slot)) return
    // runs the worker had not started go back to the head of the queue, in order; one it did start (it began
    // just as the run ahead of it ended) is lost with the worker
    const unstarted: Job[] = []
    for (const [runId, job] of [...this.running]) {
      if (job.slot !== slot) continue
      if (this.takeBack(job)) unstarted.push(job)
      else {
        this.running.delete(runId)
        clearTimeout(job.timer)
        job.settle(this.stopped(job, lost))
      }
    }
    this.waiting.delete(slot)
    for (const job of unstarted.reverse()) if (!job.settled) this.enqueue(job, true)
    const index = this.idle.indexOf(slot)
    if (index !== -1) this.idle.splice(index, 1)
    if (this.hotSlot === slot) this.hotSlot = undefined
    this.replaced++
    void slot.kill()
    if (!this.closed) this.spawn(true).catch(() => {})
  }

  private spawn(replacement: boolean): Promise<void> {
    const data = {
      memoryCapBytes: this.memoryCapBytes,
      recycleAboveBytes: this.recycleAboveBytes,
      snapshots: this.options.snapshots ?? true,
      clearMemory: this.options.clearMemory ?? true,
      failAfterAnswer: this.options.failAfterAnswer ?? false,
      logMirrorBytes: this.logMirrorBytes,
    }
    const slot = new PoolSlot(data, this.options.resourceLimits, {
      message: (from, message) => this.onMessage(from, message),
      died: (from, cause) => this.onDied(from, cause),
    })
    this.slots.add(slot)
    return slot.ready.then(
      () => {
        this.respawnDelayMs = 0
        if (this.closed) return void slot.kill()
        this.release(slot)
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
}
