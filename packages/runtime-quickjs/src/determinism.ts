/**
 * What makes a run repeatable (`RunOptions.determinism`, so a paused run can be resumed by replay): Math.random's seed, and the clock the
 * sandbox's Date reads (prelude/date.ts), which replays given values and reports every value it gave.
 */
import { MAX_CLOCK_READS } from "@switchboard/core"
import type { RunDeterminism } from "@switchboard/core"
import type { RunClockConfig } from "./prelude/protocol.js"

export interface Determinism {
  /** Math.random's xorshift64* state, never zero */
  seed: bigint
  clock: RunClock
}

/** `determinism` checked and read for one run, or why it cannot be used (a caller's mistake). */
export const readDeterminism = (determinism: RunDeterminism): Determinism | string => {
  const { seed, clock } = determinism
  const state = typeof seed === "string" && /^[0-9a-fA-F]{16}$/.test(seed) ? BigInt(`0x${seed}`) : 0n
  if (state === 0n) return "determinism.seed must be Math.random's state as 16 hex digits, not all zero"
  // finite: the clock crosses into the sandbox as JSON
  if (clock !== undefined && !(Array.isArray(clock) && clock.every((value) => Number.isFinite(value))))
    return "determinism.clock must be an array of finite numbers"
  return { seed: state, clock: new RunClock(clock ?? []) }
}

/**
 * One run's clock, which the sandbox's Date keeps (prelude/date.ts): its reads return the replayed values while
 * there are any, then the real clock, and each is reported with the script's next tool call. Past MAX_CLOCK_READS
 * reads in the run, a read is the real clock and is neither replayed nor reported (a record holds at most that
 * many).
 */
export class RunClock {
  constructor(private readonly replay: readonly number[]) {}

  /** whether there are values to replay: without any, the sandbox's Date needs no configuring */
  get replays(): boolean {
    return this.replay.length > 0
  }

  /** what the sandbox's Date is given before the script runs (or when it is made during the run), as JSON */
  config(): string {
    const replay = this.replay.length > MAX_CLOCK_READS ? this.replay.slice(0, MAX_CLOCK_READS) : this.replay
    return JSON.stringify({ replay, max: MAX_CLOCK_READS } satisfies RunClockConfig)
  }
}
