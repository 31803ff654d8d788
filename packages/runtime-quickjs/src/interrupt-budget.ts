/**
 * A deadline counted in interrupt-handler calls, the backstop to the clock where the clock does not move.
 *
 * Deployed Cloudflare Workers freeze `Date.now()` between I/O, so a CPU-bound script never sees its deadline
 * pass. QuickJS calls the interrupt handler after a fixed count of its own checkpoints (loop back-edges,
 * calls), not after a span of time: the calls go on while the clock stands still, so a run may make only so
 * many of them per millisecond of its limit. The rate depends on the script (here an empty loop made 25 calls per ms once warm, 4.6 cold,
 * an object-literal loop 0.3; workerd measured 9–53 for its loops), so the budget is sized for the fastest
 * loop: where the clock moves it never fires first, and where it does not it ends a tight loop at a few
 * times its deadline and a slow one later (the platform's CPU limit is the hard stop there).
 */

/**
 * The least rate the budget assumes, in calls per ms: above every rate measured here and in workerd, so
 * that a host no run has calibrated yet (workerd, where the clock never moves within a run) is not cut early.
 */
export const floorCallsPerMs = 60
/** Headroom over the fastest rate seen, for a host faster than any stretch it has timed so far. */
export const rateHeadroom = 2
/** Shorter stretches are not timed: Date.now's millisecond steps would make their rate wrong by too much. */
export const minSampleMs = 20

/** The fastest rate any stretch of guest code has shown in this realm (isolate, worker thread), by its clock. */
let fastestCallsPerMs = 0

/** What the budget assumes: the floor, or twice the fastest stretch timed where the clock moved. */
export const assumedCallsPerMs = (): number => Math.max(floorCallsPerMs, rateHeadroom * fastestCallsPerMs)

/** How many interrupt-handler calls fit in `ms` at the assumed rate. */
export const callsFor = (ms: number): number => Math.ceil(ms * assumedCallsPerMs())

/**
 * Records one stretch of guest code (an eval or a round of pending jobs) timed by the run's clock. A frozen
 * clock gives no elapsed time and so no sample: only a clock that moves calibrates the budget.
 */
export const recordStretch = (calls: number, elapsedMs: number): void => {
  if (elapsedMs < minSampleMs || calls <= 0) return
  fastestCallsPerMs = Math.max(fastestCallsPerMs, calls / elapsedMs)
}

/** The calibration so far, for tests and diagnostics. */
export const interruptCalibration = () => ({ fastestCallsPerMs, assumedCallsPerMs: assumedCallsPerMs() })

/** Tests only: forget what was measured. */
export const resetInterruptCalibration = (): void => {
  fastestCallsPerMs = 0
}
