/**
 * A run's deadline and its caller's abort, as timers and listeners on its job. While a run waits in the queue
 * they only take it out; once a worker has it, a run the worker has not started is taken back, and one it has
 * gets a grace to end by itself before its worker is killed: an interrupt handler cannot stop a builtin.
 */
import type { RunError, RunOutcome } from "@switchboard/core"
import { runErrors } from "../run-errors.js"
import { failed } from "./pool-job.js"
import type { Job } from "./pool-job.js"

/** how long an aborted run's worker may take to end the run by itself before it is killed */
const abortGraceMs = 250
/** setTimeout's ceiling */
const maxTimerMs = 2 ** 31 - 1

/** Stops the job's timer and abort listener. */
export const disarm = (job: Job) => {
  if (job.timer) clearTimeout(job.timer)
  if (job.onAbort) job.options.signal?.removeEventListener("abort", job.onAbort)
}

/** A queued run leaves the queue through `leave`: with `timeout` at its deadline, `aborted` on its caller's abort. */
export const armQueued = (job: Job, leave: (outcome: RunOutcome) => void) => {
  job.timer = setTimeout(
    () => leave(failed(runErrors.timeout(job.options.limits))),
    Math.min(maxTimerMs, job.deadline - Date.now()),
  )
  job.onAbort = () => leave(failed(runErrors.aborted()))
  job.options.signal?.addEventListener("abort", job.onAbort)
}

export interface RunStops {
  /** takes back a run its worker has not started; false when it has */
  takeBack(job: Job): boolean
  /** ends a started run at once and replaces its worker */
  kill(job: Job, error: RunError): void
}

/** Arms a run just given to a worker (job.slot, job.runId set) at its deadline. */
export const armRunning = (job: Job, killGraceMs: number, stops: RunStops) => {
  const slot = job.slot!
  const runId = job.runId!
  const timeout = () => runErrors.timeout(job.options.limits)
  const atDeadline = () => {
    if (stops.takeBack(job)) return job.settle(failed(timeout()))
    job.timer = setTimeout(() => stops.kill(job, timeout()), killGraceMs)
  }
  job.timer = setTimeout(atDeadline, Math.min(maxTimerMs, job.deadline - Date.now()))
  job.onAbort = () => {
    // a run the worker has not started is only taken back
    if (stops.takeBack(job)) return job.settle(failed(runErrors.aborted()))
    // The caller is gone: it hears `aborted` now, with what the run logged so far (a pause for a person's approval
    // stops a run this way, and its record keeps them). The worker gets a while to end the run by itself (a run
    // waiting on a tool does at once) before it is killed, since a kill costs a respawn.
    const outcome = stoppedOutcome(job, runErrors.aborted())
    slot.post({ type: "abort", runId })
    job.settle(outcome)
    job.timer = setTimeout(() => stops.kill(job, runErrors.aborted()), abortGraceMs)
  }
  job.options.signal?.addEventListener("abort", job.onAbort)
}

/** A run its worker was killed in fails with what it had logged by then (the worker's log mirror). */
export const stoppedOutcome = (job: Job, error: RunError): RunOutcome => {
  const logs = job.slot && job.runId !== undefined ? job.slot.logsOf(job.runId, job.options.limits) : undefined
  return { ok: false, error, logs: logs ?? [] }
}
