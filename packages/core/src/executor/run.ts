/**
 * One execution through the runtime, to its end: a refusal for want of room (`overloaded`: the run never
 * started) is the typed admission error and nothing is recorded; a run stopped at a call needing a person is a
 * pause (./pause.ts); any other end, a resume that diverged from its record included, is recorded (./record.ts).
 */
import { Overloaded, internalError } from "../errors.js"
import type { Logger } from "../errors.js"
import { RunErrorCodes } from "../seams.js"
import type { CodeRuntime, MetricsSink, RunDeterminism, RunOutcome } from "../seams.js"
import type { Execution } from "./execution.js"
import type { Pauser } from "./pause.js"
import type { Recorder } from "./record.js"
import type { ExecuteResponse } from "./response.js"
import { endSpan } from "./tracing.js"

export interface RunnerOptions {
  runtime: CodeRuntime
  logger: Logger
  metrics: MetricsSink
  inlineCap: number
  /** false: a run replays Math.random only, not Date */
  replayClock: boolean
  pause: Pauser
  record: Recorder
}

export interface Runner {
  run(execution: Execution): Promise<ExecuteResponse | Overloaded>
  /** executions started and not yet recording: a batch of records may wait briefly for them (group-commit.ts) */
  running(): number
}

/**
 * Why a resumed run that ended did not follow its record: a call differed from it, or the script ended before it
 * reached the call that was paused. Undefined for a first run, and for a resume that followed its record.
 */
const divergedFrom = (execution: Execution): string | undefined => {
  const replay = execution.replay
  if (!execution.diverged && replay && execution.callsMade <= replay.record.pause.index) {
    const { index, path } = replay.record.pause
    execution.diverged =
      `the resumed run ended after ${execution.callsMade} tool calls, before it reached the call that was paused ` +
      `(#${index + 1}, ${path}): the script did not repeat itself, so it cannot be resumed`
  }
  return execution.diverged
}

export const createRunner = ({
  runtime,
  logger,
  metrics,
  inlineCap,
  replayClock,
  pause,
  record,
}: RunnerOptions): Runner => {
  let running = 0

  /** what replays Date, unless turned off: the clock the run being resumed read */
  const determinismOf = (execution: Execution): RunDeterminism => {
    const clock = replayClock ? execution.replay?.record.clock : undefined
    return clock ? { seed: execution.seed, clock } : { seed: execution.seed }
  }

  const run = async (execution: Execution): Promise<ExecuteResponse | Overloaded> => {
    running++
    // the runtime is cut off by the caller hanging up, a pause or a divergence; the run's end needs no signal
    let outcome = await runtime
      .run(execution.code, {
        invoke: execution.invoke,
        limits: execution.limits,
        deadline: execution.deadline,
        signal: execution.runSignal,
        // a worker pool renders off the main thread: a large value's text takes tens of milliseconds to make
        render: { inlineCap, maxChars: execution.limits.maxResultBytes },
        determinism: determinismOf(execution),
      })
      .catch(
        (cause): RunOutcome => ({
          ok: false as const,
          error: { code: RunErrorCodes.internal, message: internalError(logger, "runtime", cause).message },
          logs: [],
        }),
      )
    running--
    execution.end()
    if (!outcome.ok && outcome.error.code === RunErrorCodes.overloaded) {
      metrics.executionRejected()
      endSpan(execution.span, outcome.error)
      return new Overloaded({ message: outcome.error.message, retryAfterSeconds: outcome.error.retryAfterSeconds ?? 1 })
    }
    if (execution.paused) return pause(execution, outcome.logs)
    const diverged = divergedFrom(execution)
    if (diverged)
      outcome = { ok: false, error: { code: RunErrorCodes.replayDiverged, message: diverged }, logs: outcome.logs }
    else if (execution.interrupted)
      outcome = {
        ok: false,
        error: { code: RunErrorCodes.resumeInterrupted, message: execution.interrupted },
        logs: outcome.logs,
      }
    return record(execution, outcome)
  }

  return { run, running: () => running }
}
