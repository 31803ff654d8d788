import { MAX_CLOCK_READS } from "@switchboard/core"
import type { CodeRuntime, InvokeTool } from "@switchboard/core"
import { beforeAll, describe, expect, test } from "vitest"
import { loadQuickJsModule } from "../src/index.js"
import { expectError, expectValue, runWith } from "./helpers.js"

/** One tool call as invoke saw it: `clockReads` is absent when invoke was called with two arguments. */
interface SeenCall {
  path: string
  arguments: number
  clockReads?: readonly number[]
}

/** An invoke that records each call's clock reads and answers `{ ok: true, data: null }`. */
const clockRecorder = () => {
  const calls: SeenCall[] = []
  const invoke: InvokeTool = async (...given) => {
    const [path, , clockReads] = given
    calls.push({ path, arguments: given.length, ...(clockReads ? { clockReads: [...clockReads] } : {}) })
    return { ok: true, data: null }
  }
  return { invoke, calls }
}

/** What QuickJS's Math.random gives from `seed` (quickjs.c: xorshift64*, then the top 52 bits as a double in [0, 1)). */
const expectedRandoms = (seed: string, count: number): number[] => {
  const mask = (1n << 64n) - 1n
  let state = BigInt(`0x${seed}`)
  const bits = new DataView(new ArrayBuffer(8))
  return Array.from({ length: count }, () => {
    state ^= state >> 12n
    state ^= (state << 25n) & mask
    state ^= state >> 27n
    bits.setBigUint64(0, (0x3ffn << 52n) | (((state * 0x2545f4914f6cdd1dn) & mask) >> 12n))
    return bits.getFloat64(0) - 1
  })
}

const seed = "0123456789abcdef"
const otherSeed = "fedcba9876543210"
const randoms = "return Array.from({ length: 5 }, () => Math.random())"
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * RunOptions.determinism (issue 18), part of the CodeRuntime contract: the same seed draws the same Math.random
 * values, Date's clock is replayed from `clock`, and every Date read is reported with the next tool call.
 */
export const describeDeterminismContract = (runtime: () => CodeRuntime) => {
  describe("determinism: Math.random and Date repeat a run", () => {
    const run = (code: string, options?: Parameters<typeof runWith>[2]) => runWith(runtime(), code, options)

    test("the same seed draws the same Math.random values in every run: xorshift64* from the given state", async () => {
      const first = expectValue(await run(randoms, { determinism: { seed } }))
      const second = expectValue(await run(randoms, { determinism: { seed } }))
      expect(first).toEqual(expectedRandoms(seed, 5))
      expect(second).toEqual(first)
    })

    test("different seeds draw different values; without determinism each run draws its own", async () => {
      const one = expectValue(await run(randoms, { determinism: { seed } }))
      const other = expectValue(await run(randoms, { determinism: { seed: otherSeed } }))
      expect(other).toEqual(expectedRandoms(otherSeed, 5))
      expect(other).not.toEqual(one)
      const free = [expectValue(await run(randoms)), expectValue(await run(randoms))]
      expect(free[0]).not.toEqual(free[1])
      expect(free).not.toContainEqual(one)
    })

    test.each([
      ["an empty seed", { seed: "" }, /determinism.seed/],
      ["a seed of zeros", { seed: "0000000000000000" }, /determinism.seed/],
      ["a seed of 15 digits", { seed: "0123456789abcde" }, /determinism.seed/],
      ["a seed that is not hex", { seed: "0123456789abcdeg" }, /determinism.seed/],
      ["a clock that is not numbers", { seed, clock: ["1000"] as unknown as number[] }, /determinism.clock/],
    ])("%s fails the run with internal_error before the script runs", async (_name, determinism, message) => {
      const { invoke, calls } = clockRecorder()
      const error = expectError(await run("await tools.a.b({})\nreturn 1", { invoke, determinism }))
      expect(error.code).toBe("internal_error")
      expect(error.message).toMatch(message)
      expect(calls).toEqual([])
    })

    test("Date.now() gives the clock's values in order, then the real clock", async () => {
      const before = Date.now()
      const values = expectValue(
        await run("return [Date.now(), Date.now(), Date.now(), Date.now()]", {
          determinism: { seed, clock: [1000, 2000] },
        }),
      ) as number[]
      const after = Date.now()
      expect(values.slice(0, 2)).toEqual([1000, 2000])
      for (const value of values.slice(2)) {
        expect(value).toBeGreaterThanOrEqual(before)
        expect(value).toBeLessThanOrEqual(after)
      }
    })

    test("new Date(), Date() and a subclass without arguments are replayed too; Date(x) reads the clock, new Date(x) does not", async () => {
      const code = [
        "class Stamp extends Date {}",
        "const stamp = new Stamp()",
        "return [new Date().getTime(), Date(), new Date(5).getTime(), Date(7), stamp.getTime(), stamp instanceof Stamp,",
        "  new Date(2000).toString(), new Date(3000).toString(), Date.now()]",
      ].join("\n")
      const values = expectValue(await run(code, { determinism: { seed, clock: [4000, 1000, 2000, 3000, 5000] } }))
      const [viaNew, called, given, calledWithArgument, stamped, isStamp, at2000, at3000, now] = values as unknown[]
      expect([viaNew, given, stamped, isStamp, now]).toEqual([1000, 5, 4000, true, 5000])
      expect(called).toBe(at2000)
      expect(calledWithArgument).toBe(at3000)
    })

    test("every Date read is reported with the script's next tool call, in order, replayed values included", async () => {
      const { invoke, calls } = clockRecorder()
      const code = [
        "const seen = [Date.now(), new Date().getTime()]",
        "await tools.a.first({})",
        "seen.push(Date.now())",
        "Date()",
        "await Promise.all([tools.a.second({}), tools.a.third({})])",
        "await tools.a.fourth({})",
        "return seen",
      ].join("\n")
      const seen = expectValue(await run(code, { invoke, determinism: { seed, clock: [1000, 2000] } })) as number[]
      expect(seen.slice(0, 2)).toEqual([1000, 2000])
      expect(calls).toEqual([
        { path: "a.first", arguments: 3, clockReads: [1000, 2000] },
        { path: "a.second", arguments: 3, clockReads: [seen[2], expect.any(Number)] },
        { path: "a.third", arguments: 2 },
        { path: "a.fourth", arguments: 2 },
      ])
      expect(calls[1]!.clockReads![1]).toBeGreaterThanOrEqual(seen[2]!)
    })

    test("without determinism nothing is reported: invoke gets two arguments, and Date reads the real clock", async () => {
      const { invoke, calls } = clockRecorder()
      const before = Date.now()
      const now = expectValue(
        await run("const now = Date.now()\nnew Date()\nawait tools.a.b({})\nreturn now", { invoke }),
      )
      expect(now).toBeGreaterThanOrEqual(before)
      expect(now).toBeLessThanOrEqual(Date.now())
      expect(calls).toEqual([{ path: "a.b", arguments: 2 }])
    })

    test("a run fed the reads its first run reported sees the very same values", async () => {
      const code = [
        "const seen: unknown[] = []",
        "for (let i = 0; i < 3; i++) {",
        "  seen.push(Date.now(), new Date().toISOString(), Date(), Math.random())",
        "  await tools.a.step({ i })",
        "}",
        "return seen",
      ].join("\n")
      const first = clockRecorder()
      const once = expectValue(await run(code, { invoke: first.invoke, determinism: { seed, clock: [1000] } }))
      const reported = first.calls.flatMap((call) => call.clockReads ?? [])
      expect(reported).toHaveLength(9)
      expect(reported[0]).toBe(1000)
      // the real clock moves on meanwhile: a value not replayed would differ
      await pause(20)
      const second = clockRecorder()
      const again = expectValue(await run(code, { invoke: second.invoke, determinism: { seed, clock: reported } }))
      expect(again).toEqual(once)
      expect(second.calls).toEqual(first.calls)
    })

    test("at most MAX_CLOCK_READS reads are reported and replayed in a run; past them reads go on, live and unreported", async () => {
      const { invoke, calls } = clockRecorder()
      const code = [
        `const n = ${MAX_CLOCK_READS}`,
        "let replayed = 0",
        "for (let i = 0; i < n; i++) if (Date.now() === 7) replayed++",
        "const past = [Date.now(), new Date().getTime(), Date.now()]",
        "await tools.a.first({})",
        "const after = Date.now()",
        "await tools.a.second({})",
        "return { replayed, past, after }",
      ].join("\n")
      const before = Date.now()
      const clock = new Array<number>(MAX_CLOCK_READS + 10).fill(7)
      const value = expectValue(
        await run(code, { invoke, determinism: { seed, clock }, limits: { timeoutMs: 60_000 } }),
      )
      const { replayed, past, after } = value as { replayed: number; past: number[]; after: number }
      expect(replayed).toBe(MAX_CLOCK_READS)
      for (const live of [...past, after]) expect(live).toBeGreaterThanOrEqual(before)
      expect(calls).toHaveLength(2)
      expect(calls[0]!.clockReads).toHaveLength(MAX_CLOCK_READS)
      expect(calls[0]!.clockReads!.every((read) => read === 7)).toBe(true)
      expect(calls[1]).toEqual({ path: "a.second", arguments: 2 })
    }, 60_000)

    test("with nothing to replay, Date records from the real clock as made: the same cap, and no call in to set it", async () => {
      const { invoke, calls } = clockRecorder()
      const code = `for (let i = 0; i < ${MAX_CLOCK_READS + 3}; i++) Date.now()\nawait tools.a.first({})\nreturn 1`
      expectValue(await run(code, { invoke, determinism: { seed }, limits: { timeoutMs: 60_000 } }))
      expect(calls[0]!.clockReads).toHaveLength(MAX_CLOCK_READS)
    }, 60_000)

    describe("Date stays standard but for its clock", () => {
      /** expressions that read no clock: each must give what the context's own Date gives */
      const conformance = [
        "new Date(0).toISOString()",
        "Date.UTC(2000, 0, 2, 3, 4, 5, 6)",
        "Date.parse('2000-01-02T03:04:05.006Z')",
        "new Date('2020-02-29T12:00:00Z').getTime()",
        "new Date(2020, 1, 29, 1, 2, 3, 4).getTime()",
        "new Date(2020, 1).getMonth()",
        "new Date(new Date(7)).getTime()",
        "Number.isNaN(new Date(NaN).getTime())",
        "Number.isNaN(new Date(undefined).getTime())",
        "JSON.stringify({ at: new Date(0) })",
        "new Date(0) instanceof Date",
        "Object.prototype.toString.call(new Date(0))",
        "Object.getPrototypeOf(new Date(0)) === Date.prototype",
        "Date.prototype.constructor === Date",
        "new Date(0).constructor === Date",
        "[Date.length, Date.name, Date.now.name, Date.now.length, Date.parse.name, Date.UTC.length]",
        "Object.getOwnPropertyNames(Date)",
        "Object.keys(Date)",
        "['prototype', 'now', 'parse', 'UTC'].map((key) => { const d = Object.getOwnPropertyDescriptor(Date, key); " +
          "return [d.writable, d.enumerable, d.configurable] })",
        "(() => { const d = Object.getOwnPropertyDescriptor(Date.prototype, 'constructor'); return [d.writable, d.enumerable, d.configurable] })()",
        "(() => { Date; const d = Object.getOwnPropertyDescriptor(globalThis, 'Date'); " +
          "return [d.writable, d.enumerable, d.configurable, d.value === Date] })()",
        "Object.keys(globalThis).includes('Date')",
        "Object.getPrototypeOf(Date) === Function.prototype",
        "typeof Date()",
        "(() => { class Day extends Date { day() { return this.getUTCDate() } }; const d = new Day(0); " +
          "return [d.day(), d instanceof Day, d instanceof Date, Object.getPrototypeOf(Day) === Date] })()",
        "(() => { try { new (Date.now as any)(); return 'constructed' } catch (error) { return error instanceof TypeError } })()",
        "(() => { try { Date.prototype.getTime.call({}); return 'read' } catch (error) { return error instanceof TypeError } })()",
        "Reflect.construct(Date, [0], Object) instanceof Date",
        "String(Date)",
        "Function.prototype.toString.call(Date.now).includes('native code')",
      ]
      let native: unknown[]
      beforeAll(async () => {
        const module = await loadQuickJsModule()
        const context = module.newContext()
        const source = `JSON.stringify([${conformance.map((expression) => expression.replace(" as any", "")).join(",\n")}])`
        native = JSON.parse(context.unwrapResult(context.evalCode(source)).consume(context.getString))
        context.dispose()
      })

      test("every clock-free expression gives what QuickJS's own Date gives, with and without determinism", async () => {
        const code = `return [${conformance.join(",\n")}]`
        expect(expectValue(await run(code))).toEqual(native)
        expect(expectValue(await run(code, { determinism: { seed, clock: [1000] } }))).toEqual(native)
      })

      test("replacing Date or Date.now changes only the script's own view: the host's clock still replays and reports", async () => {
        const { invoke, calls } = clockRecorder()
        const code = [
          "Date.now = () => 5",
          "const mine = [Date.now(), new Date().getTime()]",
          "const Original = Date",
          "globalThis.Date = class { static now() { return 6 } } as any",
          "mine.push(Date.now(), new Original().getTime())",
          "await tools.a.b({})",
          "return mine",
        ].join("\n")
        const mine = expectValue(await run(code, { invoke, determinism: { seed, clock: [1000, 2000] } }))
        expect(mine).toEqual([5, 1000, 6, 2000])
        expect(calls).toEqual([{ path: "a.b", arguments: 3, clockReads: [1000, 2000] }])
        expect(expectValue(await run("return [Date.now === Date.now, Date.name, typeof Date.now()]"))).toEqual([
          true,
          "Date",
          "number",
        ])
      })

      test("changing Reflect, Object, Array.prototype or Object.prototype before the first read does not break Date", async () => {
        const code = [
          "Reflect.construct = Reflect.apply = Object.defineProperty = Object.defineProperties = null as any",
          "Array.prototype[Symbol.iterator] = null as any",
          "Reflect.defineProperty(Object.prototype, 'get', { __proto__: null, value: () => 1, configurable: true } as any)",
          "Reflect.defineProperty(Object.prototype, 'set', { __proto__: null, value: () => 1, configurable: true } as any)",
          "Function.prototype.bind = Function.prototype.call = Function.prototype.apply = null as any",
          "class Later extends Date {}",
          "return [Date.now(), new Date().getTime(), new Date(0).getTime(), typeof Date(), Date.name, Date.length,",
          "  Date.prototype.constructor === Date, new Later() instanceof Date, Object.keys(Date).length]",
        ].join("\n")
        expect(expectValue(await run(code, { determinism: { seed, clock: [1000, 2000, 3000, 4000] } }))).toEqual([
          1000,
          2000,
          0,
          "string",
          "Date",
          7,
          true,
          true,
          0,
        ])
      })
    })
  })
}
