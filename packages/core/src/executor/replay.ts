/**
 * Resume by deterministic replay. QuickJS state cannot be saved, so a paused execution is
 * resumed by running its script again from the start: every tool call its earlier run already made returns the
 * decoded result recorded then, in the order the calls were made, without calling upstream again; Math.random
 * gets the same seed and Date the values the earlier run read (RunDeterminism). A call that differs from the
 * record (another tool, other arguments) fails the run with `replay_diverged`, and reaches no source.
 *
 * What a pause stores, `ReplayRecord`, is JSON in the approval's row (catalog/rows.ts ApprovalRow.replay).
 */
import type { ToolResult } from "../result.js"
import type { RunLimits } from "../seams.js"

/** One tool call an earlier run made, by its place among the run's calls (the order the script made them). */
export interface RecordedCall {
  index: number
  path: string
  /** the arguments' JSON text ("" for none) */
  args: string
  result: ToolResult
}

/** The call a run paused at, and the decision that resumes it. */
export interface PausedCall {
  index: number
  path: string
  args: string
}

export interface ReplayRecord {
  version: 1
  code: string
  limits: RunLimits
  seed: string
  /** the values the script's Date reads returned, in order, up to the pause */
  clock: number[]
  /** every call that finished before the pause, with its decoded result */
  calls: RecordedCall[]
  pause: PausedCall
  /** when the execution first started (epoch ms) */
  startedAt: number
  /** run time so far, summed over its runs: time waiting for a person is not in it */
  runMs: number
  /** tool calls recorded so far (`tool_calls` rows) */
  toolCallCount: number
}

/** How the paused call was decided: an approval runs it, a decline (or an expiry) resolves it to `declined`. */
export type ReplayDecision = { approved: true } | { approved: false; note: string | null; expired: boolean }

/** The replay a resumed Execution follows. */
export interface Replay {
  record: ReplayRecord
  decision: ReplayDecision
  /** the approval being resumed */
  approvalId: string
  /**
   * Says in the store that this resume reached the paused call, before it is made (or answered declined): false
   * when an earlier resume got there first (catalog/rows.ts passPause); then this one stops, and calls nothing.
   */
  passPause: () => Promise<boolean>
}

/** The arguments as a recorded call keeps them: their JSON text, "" for none. */
export const argsText = (args: unknown): string => (args === undefined ? "" : (JSON.stringify(args) ?? ""))

const shown = (path: string, args: string) => `${path}(${args.length > 200 ? `${args.slice(0, 200)}…` : args})`

/** Why a replay's call (`args`: its arguments' text) is not the recorded one; undefined when it is. */
export const divergence = (
  recorded: { path: string; args: string },
  call: { index: number; path: string },
  args: string,
) =>
  recorded.path === call.path && recorded.args === args
    ? undefined
    : `the resumed run's tool call #${call.index + 1} was ${shown(call.path, args)}, ` +
      `but its first run called ${shown(recorded.path, recorded.args)} there: the script did not repeat itself ` +
      "(it may read something other than tools, Math.random and Date), so it cannot be resumed"

/**
 * A fresh Math.random seed: 16 hex digits, never all zero. From crypto.randomUUID, which Node serves from a pool of
 * random bytes (0.4 µs a call, where getRandomValues costs microseconds): its first 12 and last 4 hex digits are
 * random (the version and variant digits sit between).
 */
export const freshSeed = (): string => {
  const uuid = crypto.randomUUID()
  const seed = uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(32, 36)
  return seed === "0000000000000000" ? "0000000000000001" : seed
}

export const isReplayRecord = (value: unknown): value is ReplayRecord =>
  typeof value === "object" && value !== null && (value as { version?: unknown }).version === 1
