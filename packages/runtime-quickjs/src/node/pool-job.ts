import type { RunError, RunOptions, RunOutcome } from "@switchboard/core"
import type { PoolSlot } from "./pool-slot.js"
import type { ToolAnswer } from "./protocol.js"

/** One call of `run`, from the moment it reaches the pool until its caller has the outcome. */
export interface Job {
  code: string
  options: RunOptions
  /** when the run must end (epoch ms): the caller's RunOptions.deadline, or its limit from when it reached the pool */
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
  /** answers to its tool calls not yet posted: those that come in one turn go to the worker as one message */
  answers?: ToolAnswer[] | undefined
  /** sent to a busy worker to start later: the index of its claim word (Signal.claims) */
  claim?: number | undefined
  settle(outcome: RunOutcome): void
}

export const failed = (error: RunError): RunOutcome => ({ ok: false, error, logs: [] })
