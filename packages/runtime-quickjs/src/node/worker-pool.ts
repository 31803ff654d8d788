import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Render from "@switchboard/core/render"
import type { RunError, RunOptions, RunOutcome, ToolResult } from "@switchboard/core"
import { runErrors } from "../run-errors.js"
import { failed } from "./pool-job.js"
import type { Job } from "./pool-job.js"
import { resolvePoolOptions } from "./pool-options.js"
import type { WorkerPoolOptions, WorkerPoolRuntime, WorkerPoolStats } from "./pool-options.js"
import type { PoolSlot } from "./pool-slot.js"
import { PollingPolicy } from "./polling-policy.js"
import type { FromWorker } from "./protocol.js"
import { IdleTrim } from "./idle-trim.js"
import { armRunning, disarm, stoppedOutcome } from "./run-deadlines.js"
import type { RunStops } from "./run-deadlines.js"
import { RunQueue } from "./run-queue.js"
import { WorkerLifecycle } from "./worker-lifecycle.js"

const hostFailureJson = JSON.stringify({
  ok: false,
  error: { code: "internal_error", message: "the tool call failed in the host" },
} satisfies ToolResult)
/** A tool call's result as JSON text; never rejects. `clockReads` as the worker sent them (InvokeTool). */
const answerJson = async (
  invoke: RunOptions["invoke"],
  path: string,
  argsJson: string,
  clockReads: readonly number[] | undefined,
): Promise<string> => {
  try {
    const args: unknown = JSON.parse(argsJson)
    return JSON.stringify(await (clockReads ? invoke(path, args, clockReads) : invoke(path, args))) ?? hostFailureJson
  } catch {
    // invoke never rejects for an expected failure; a host error may carry secrets, so it stays here
    return hostFailureJson
  }
}

/**
 * A CodeRuntime on a pool of worker threads (Node only). The main thread never runs guest code: it
 * queues runs, answers tool calls and enforces the hard limits by terminating a worker, which stops
 * even a loop inside one long builtin and hands the worker's memory back to the OS. The pool is warm
 * when this resolves (every worker has loaded its QuickJS module).
 */
export const createWorkerPoolRuntime = async (options: WorkerPoolOptions = {}): Promise<WorkerPoolRuntime> => {
  const pool = startWorkerPoolRuntime(options)
  await pool.started
  return pool
}

/**
 * The same pool at once, while its workers load (a few hundred ms each): a run meanwhile waits in the queue for
 * the first worker, its deadline counting the wait. `started` settles as createWorkerPoolRuntime does: when every
 * worker has loaded, or with why one could not, the pool closed then (runs waiting end as `aborted`). A server
 * listens meanwhile, so that its process answers `/healthz` before its sandboxes are warm.
 */
export const startWorkerPoolRuntime = (
  options: WorkerPoolOptions = {},
): WorkerPoolRuntime & { started: Promise<void> } => {
  const pool = new WorkerPool(options)
  const started = pool.start()
  // the caller awaits it, maybe later: a failure meanwhile is not an unhandled rejection
  started.catch(() => {})
  return Object.assign(pool, { started })
}

/**
 * Hands runs to workers and hears back from them. What it leans on: the queue and claims (run-queue.ts), the
 * deadlines and kills (run-deadlines.ts), the workers' lifecycle (worker-lifecycle.ts) and the policy of who
 * gets a run and who polls (polling-policy.ts).
 */
class WorkerPool implements WorkerPoolRuntime {
  private readonly size: number
  private readonly killGraceMs: number
  private readonly workerFile: URL
  private readonly runs: RunQueue
  private readonly workers: WorkerLifecycle
  private readonly idle: PoolSlot[] = []
  private readonly idleTrim: IdleTrim
  private readonly polling: PollingPolicy
  private closed = false
  /** what a run's deadline and abort do (run-deadlines.ts) */
  private readonly stops: RunStops = {
    takeBack: (job) => this.takeBack(job),
    kill: (job, error) => this.kill(job, error),
  }

  constructor(options: WorkerPoolOptions) {
    const config = resolvePoolOptions(options)
    this.size = config.size
    this.killGraceMs = config.killGraceMs
    this.idleTrim = new IdleTrim(config.idleTrim, {
      isIdle: (slot) => this.idle.includes(slot),
      starting: () => this.stats().starting > 0,
      replace: (slot) => this.replace(slot),
    })
    this.workerFile = config.worker.workerFile
    this.runs = new RunQueue(config.queueLimit, config.size)
    this.workers = new WorkerLifecycle(config.worker, config.resourceLimits, {
      ready: (slot) => this.release(slot),
      message: (slot, message) => this.onMessage(slot, message),
      died: (slot, cause) => this.onDied(slot, cause),
    })
    this.polling = new PollingPolicy(this.idle, this.runs.running, () => this.closed)
  }

  async start(): Promise<void> {
    if (!existsSync(this.workerFile)) {
      // runs may be waiting already (startWorkerPoolRuntime): they end now, not at their deadlines
      await this.close()
      throw new Error(
        `the QuickJS worker pool cannot start: its worker bundle ${fileURLToPath(this.workerFile)} is missing. ` +
          "Build it with `pnpm build` at the repository root (bash scripts/setup does)",
      )
    }
    const starting = Array.from({ length: this.size }, () => this.workers.spawn(false))
    const results = await Promise.allSettled(starting)
    const failure = results.find((result) => result.status === "rejected")
    if (failure) {
      await this.close()
      throw new Error(`the QuickJS worker pool could not start: ${String((failure as PromiseRejectedResult).reason)}`)
    }
  }

  stats(): WorkerPoolStats {
    const slots = [...this.workers.slots]
    const starting = slots.filter((slot) => slot.runId === undefined && !this.idle.includes(slot)).length
    const waiting = this.runs.waiting.size
    return {
      size: this.size,
      idle: this.idle.length,
      busy: this.runs.running.size - waiting,
      starting,
      queued: this.runs.queue.length + waiting,
      replaced: this.workers.replaced,
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
        // the caller's deadline as it is; a caller that sets none gets its limit from the moment the run got here
        deadline: options.deadline ?? startedAt + options.limits.timeoutMs,
        settle: resolve,
        callsInHost: 0,
      }
      job.settle = (outcome) => {
        job.settle = () => {}
        job.settled = true
        disarm(job)
        if (job.runId !== undefined) this.runs.ranFor(Date.now() - startedAt)
        resolve(outcome)
      }
      const slot = this.polling.takeIdle()
      if (slot) return this.begin(slot, job)
      // runs sent to busy workers to wait count against the queue's bound
      if (this.runs.full) return job.settle(failed(this.runs.overloaded()))
      if (this.runs.queue.length === 0 && this.sendWaiting(job)) return
      this.runs.enqueue(job)
    })
  }

  async close(): Promise<void> {
    this.closed = true
    this.idleTrim.close()
    this.runs.abortAll(runErrors.aborted())
    this.idle.length = 0
    await this.workers.close()
  }

  /** With every worker busy, sends the run to a busy one to start after its current run (RunQueue.busyWorkerFor). */
  private sendWaiting(job: Job): boolean {
    const target = this.runs.busyWorkerFor(this.workers.slots)
    if (!target) return false
    this.begin(target, job, true)
    return true
  }

  /** RunQueue.takeBack, and a worker left with nothing to do is free for the next run. */
  private takeBack(job: Job): boolean {
    const slot = job.slot
    if (!slot || !this.runs.takeBack(job)) return false
    // with nothing left for it, the worker is free: the next run may go there now
    if (slot.runId === undefined && this.workers.slots.has(slot) && !this.idle.includes(slot)) this.release(slot)
    return true
  }

  private begin(slot: PoolSlot, job: Job, waiting = false) {
    disarm(job)
    const { deadline } = job
    if (deadline <= Date.now()) {
      job.settle(failed(runErrors.timeout(job.options.limits)))
      if (!waiting) this.release(slot)
      return
    }
    const runId = this.runs.assign(job, slot, waiting)
    armRunning(job, this.killGraceMs, this.stops)
    const { limits, render, determinism } = job.options
    if (waiting) {
      // the callers checked mayTakeWaiting
      job.claim = slot.markWaiting(runId)!
      return slot.post({ type: "run", runId, code: job.code, limits, deadline, claim: job.claim, render, determinism })
    }
    this.polling.cool(slot)
    // a worker still preparing its next sandbox holds the run until then: the deadline counts that wait
    slot.post({ type: "run", runId, code: job.code, limits, deadline, render, determinism })
    this.polling.stayHot()
  }

  private onMessage(slot: PoolSlot, message: FromWorker) {
    if (message.type === "ready") return
    if (message.type === "poisoned") return this.onPoisoned(slot)
    const job = this.runs.running.get(message.runId)
    // a message about a run that already ended (killed, aborted) is dropped
    if (!job || job.slot !== slot) return
    if (message.type === "calls") return this.invoke(slot, job, message)
    this.runs.running.delete(message.runId)
    clearTimeout(job.timer)
    slot.runId = undefined
    slot.wasmBytes = message.wasmBytes
    const outcome = message.outcome
    // a large object or array came as its JSON text (pool-worker.ts, withRendered): it is parsed if it is read
    if (outcome.ok && !("value" in outcome))
      Render.parseOnRead(outcome as Extract<RunOutcome, { ok: true }>, "value", outcome.rendered.json)
    job.settle(outcome as RunOutcome)
    if (message.poisoned || this.workers.mustRecycle(message.wasmBytes)) return this.replace(slot)
    // the worker starts its waiting run by itself once its next sandbox is ready (the pool may still take it
    // back until then: a claim word each); the next run in the queue may wait behind it
    if (!this.runs.promoteWaiting(slot)) return this.release(slot)
    if (!slot.mayTakeWaiting) return
    const queued = this.runs.queue.shift()
    if (queued) this.begin(slot, queued, true)
  }

  private invoke(slot: PoolSlot, job: Job, { runId, calls }: Extract<FromWorker, { type: "calls" }>) {
    const received = performance.now()
    job.callsInHost += calls.length
    for (const { callId, path, argsJson, clockReads } of calls) {
      void answerJson(job.options.invoke, path, argsJson, clockReads).then((resultJson) => {
        job.callsInHost--
        // the run may have ended while the tool worked: its result goes nowhere
        if (slot.runId !== runId) return
        const answer = { callId, resultJson, hostMs: performance.now() - received }
        if (job.answers) return void job.answers.push(answer)
        job.answers = [answer]
        queueMicrotask(() => this.postAnswers(slot, job, runId))
      })
    }
  }

  /** Posts the answers that came in this turn, then waits for what the worker does next (PollingPolicy). */
  private postAnswers(slot: PoolSlot, job: Job, runId: number) {
    const results = job.answers
    job.answers = undefined
    if (!results || slot.runId !== runId) return
    slot.post({ type: "results", runId, results })
    this.polling.stayHot()
    // with other calls of the run still out, their answers are what comes next, not the guest's next call
    if (job.callsInHost === 0) this.polling.awaitNextCall(slot)
  }

  private onDied(slot: PoolSlot, cause: unknown) {
    const job = slot.runId === undefined ? undefined : this.runs.running.get(slot.runId)
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
    const job = slot.runId === undefined ? undefined : this.runs.running.get(slot.runId)
    // the current run never started (the worker failed after answering the run before it); one sent to wait is
    // put back by replace(), with any waiting behind it, and this one goes ahead of them
    const unstarted = job && job.slot === slot && job.claim === undefined ? job : undefined
    if (unstarted) {
      this.runs.detach(unstarted)
      slot.runId = undefined
    }
    this.replace(slot)
    if (unstarted && !unstarted.settled) this.runs.enqueue(unstarted, true)
    const idle = this.idle.shift()
    if (idle) this.release(idle)
  }

  /** Ends a run at once and replaces its worker (a run the worker has not started is only taken back). */
  private kill(job: Job, error: RunError) {
    // what the worker already sent is heard first: the run ahead of this one, or this one, may have ended
    job.slot?.handoff.drain()
    if (job.runId === undefined || this.runs.running.get(job.runId) !== job) return
    if (this.takeBack(job)) return job.settle(failed(error))
    this.runs.startedMeanwhile(job)
    this.runs.running.delete(job.runId)
    this.polling.allot()
    job.settle(stoppedOutcome(job, error))
    if (job.slot) this.replace(job.slot)
  }

  /** A worker is free: it takes the oldest run waiting anywhere, or goes idle. */
  private release(slot: PoolSlot) {
    if (this.closed || !slot.alive) return
    // a run waiting behind another worker's run came before any queued one: it goes first, here
    for (const job of this.runs.waiting.values()) {
      if (this.runs.queue.length > 0 && this.runs.queue[0]!.startedAt < job.startedAt) break
      if (this.takeBack(job)) return this.begin(slot, job)
    }
    const next = this.runs.queue.shift()
    if (next) return this.begin(slot, next)
    this.polling.wentIdle(slot)
    this.idleTrim.wentIdle(slot)
  }

  private replace(slot: PoolSlot, lost: RunError = runErrors.internal("the sandbox worker stopped unexpectedly")) {
    if (!this.workers.remove(slot)) return
    this.runs.reclaim(slot, lost)
    const index = this.idle.indexOf(slot)
    if (index !== -1) this.idle.splice(index, 1)
    this.polling.cool(slot)
    this.workers.replace(slot)
  }
}
