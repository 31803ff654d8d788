import { describe, expect, test } from "vitest"
import { createQuickJsRuntime, interruptCalibration } from "../src/index.js"
import { floorCallsPerMs, resetInterruptCalibration } from "../src/interrupt-budget.js"
import { expectError, expectValue, recordingInvoke, runWith } from "./helpers.js"
import { describeCodeRuntimeContract } from "./runtime-contract.js"

// Deployed Workers freeze Date.now() during synchronous work; the runtime reads the clock it is given.
const frozen = () => 1_700_000_000_000

const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

describe("deadlines with the clock frozen (the interrupt-call budget)", () => {
  test("while (true) {} with a 200 ms deadline ends with timeout, within a few seconds", async () => {
    resetInterruptCalibration()
    const runtime = await createQuickJsRuntime({ now: frozen })
    const { value, ms } = await timed(() => runWith(runtime, "while (true) {}", { limits: { timeoutMs: 200 } }))
    const error = expectError(value)
    expect(error.code).toBe("timeout")
    expect(error.message).toContain("200 ms")
    expect(ms).toBeLessThan(5_000)
    // a frozen clock times no stretch, so the budget stays at its floor
    expect(interruptCalibration()).toEqual({ fastestCallsPerMs: 0, assumedCallsPerMs: floorCallsPerMs })
    console.log(`frozen clock, 200 ms deadline, empty loop: ended after ${ms.toFixed(0)} ms`)
  })

  test("a loop that catches the interrupt is still stopped", async () => {
    const runtime = await createQuickJsRuntime({ now: frozen })
    const { value, ms } = await timed(() =>
      runWith(runtime, "for (;;) { try { while (true) {} } catch {} }", { limits: { timeoutMs: 200 } }),
    )
    expect(expectError(value).code).toBe("timeout")
    expect(ms).toBeLessThan(5_000)
  })

  test("short runs, tool calls and errors are unaffected", async () => {
    const runtime = await createQuickJsRuntime({ now: frozen })
    const { invoke } = recordingInvoke({ "a.b": () => 5 })
    const code = "let n = 0; for (let i = 0; i < 20; i++) n += (await tools.a.b({})).data; return n"
    expect(expectValue(await runWith(runtime, code, { invoke, limits: { timeoutMs: 200 } }))).toBe(100)
    expect(expectError(await runWith(runtime, "throw new Error('x')")).message).toBe("Error: x")
  })
})

describe("where the clock moves", () => {
  test("runs calibrate the budget, and the clock, not the budget, ends the loop", async () => {
    resetInterruptCalibration()
    const runtime = await createQuickJsRuntime()
    const endings: number[] = []
    for (let run = 0; run < 3; run++) {
      const { value, ms } = await timed(() => runWith(runtime, "while (true) {}", { limits: { timeoutMs: 200 } }))
      expect(expectError(value).code).toBe("timeout")
      endings.push(ms)
    }
    const { fastestCallsPerMs, assumedCallsPerMs } = interruptCalibration()
    expect(fastestCallsPerMs).toBeGreaterThan(0)
    // never cut early: the budget assumes at least twice the fastest rate timed
    expect(assumedCallsPerMs).toBeGreaterThanOrEqual(2 * fastestCallsPerMs)
    for (const ms of endings) expect(ms).toBeGreaterThanOrEqual(199)
    console.log(
      `real clock: fastest ${fastestCallsPerMs.toFixed(1)} calls/ms, budget assumes ${assumedCallsPerMs.toFixed(1)}; ` +
        `200 ms loops ended after ${endings.map((ms) => ms.toFixed(0)).join(", ")} ms`,
    )
  })
})

// Every limit of the contract with the clock frozen from the start: only the host's wall-clock timer (for
// awaited tool calls) and the interrupt budget can end a run.
describeCodeRuntimeContract("in-thread, clock frozen", () => createQuickJsRuntime({ now: frozen }), frozen)
