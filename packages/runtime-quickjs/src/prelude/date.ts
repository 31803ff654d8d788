/**
 * Runs inside QuickJS: makes the sandbox's `Date` (sandbox-globals.ts: on the script's first read of it, or
 * between runs, for a snapshot). It is the context's own Date but for its three reads of the clock,
 * `Date.now()`, `new Date()` without arguments and `Date()` called as a function, which a run with
 * `RunOptions.determinism` replays and reports. Everything else is the original's: the same prototype (so every
 * method, `instanceof Date` and subclasses), `parse` and `UTC`, and the same own properties in the same order.
 * It is a bound function, as that is a constructor without a `prototype` of its own to put first, and prints
 * as `function Date() { [native code] }` (so does `Date.now`).
 *
 * The clock is kept here, not in the host: a call to the host costs many times a read of QuickJS's own clock.
 * For a run with determinism the host calls `configure` with the values to replay before the script runs (none: no
 * call), and `takeReads` at each tool call; a run without it never calls in, and every read is the original clock. That
 * state is the run's own: a sandbox serves one run, or is put back by its snapshot.
 * Bundled by scripts/build-prelude.mjs into dist/prelude.js; never import it from host code.
 */
import type { MakeDate, RunClockConfig } from "./protocol.js"

/** MAX_CLOCK_READS (core's seams.ts), which a test checks this against: the prelude imports nothing */
const DEFAULT_MAX_READS = 100_000

const makeDate: MakeDate = (parse, stringify, OriginalDate, construct, apply, bind, defineProperty) => {
  const liveNow = OriginalDate.now
  const toDateString = OriginalDate.prototype.toString
  /**
   * this run's clock: as made, none to replay and reads recorded (from the real clock, as without it), so that a run
   * with determinism and nothing to replay needs no call in; `configure` gives it the values a replay returns.
   * A run without determinism records too, and nobody takes the reads: they go with the sandbox.
   */
  let clock: RunClockConfig = { replay: [], max: DEFAULT_MAX_READS }
  /** the reads since the last tool call, and how many this run recorded */
  let unreported: number[] = []
  let recorded = 0
  const now = (): number => {
    if (recorded >= clock.max) return liveNow()
    const value = recorded < clock.replay.length ? clock.replay[recorded]! : liveNow()
    unreported[unreported.length] = value
    recorded++
    return value
  }

  // a function, not a class, since Date() without `new` must work; seven parameters, as Date.length is 7
  const withClock = function (
    this: unknown,
    _year?: unknown,
    _monthIndex?: unknown,
    _day?: unknown,
    _hours?: unknown,
    _minutes?: unknown,
    _seconds?: unknown,
    _ms?: unknown,
  ) {
    if (!new.target) return apply(toDateString, new OriginalDate(now()), [])
    // `new Date()` passes withClock itself, whose prototype is Date.prototype; a subclass passes its own
    return construct(OriginalDate, arguments.length === 0 ? [now()] : arguments, new.target)
  }
  const SandboxDate: DateConstructor = apply(bind, withClock, [undefined])
  // Descriptors without a prototype, and no iterator: this may run after the script changed Object.prototype or
  // Array.prototype. A new property's missing attributes are false.
  const define = (target: object, name: string, descriptor: PropertyDescriptor) =>
    defineProperty(target, name, { __proto__: null, ...descriptor } as PropertyDescriptor)
  // bound too, so that it prints as native code; not a constructor, as the original is not
  const boundNow: () => number = apply(bind, () => now(), [undefined])
  const methods = { now: boundNow, parse: OriginalDate.parse, UTC: OriginalDate.UTC }
  const method = (name: keyof typeof methods) =>
    define(SandboxDate, name, { value: methods[name], writable: true, configurable: true })
  // instanceof on a bound function asks its target
  define(withClock, "prototype", { value: OriginalDate.prototype })
  define(SandboxDate, "name", { value: "Date" })
  define(boundNow, "name", { value: "now" })
  method("now")
  method("parse")
  method("UTC")
  define(SandboxDate, "prototype", { value: OriginalDate.prototype })
  define(OriginalDate.prototype, "constructor", { value: SandboxDate })

  const configure = (clockJson: string) => {
    clock = parse(clockJson)
  }
  const takeReads = () => {
    if (unreported.length === 0) return undefined
    const json = stringify(unreported)
    unreported = []
    return json
  }
  return [SandboxDate, configure, takeReads]
}

export default makeDate
