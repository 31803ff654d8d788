import type { RunOutcome } from "@switchboard/core"
import { describe, expect, test } from "vitest"
import { loadQuickJsModule } from "../src/index.js"
import { runInSandbox } from "../src/run-script.js"
import { createSandbox } from "../src/sandbox.js"
import { snapshotSandbox } from "../src/sandbox-snapshot.js"
import type { SandboxSnapshot, SnapshotOptions } from "../src/sandbox-snapshot.js"
import { expectValue, recordingInvoke, testLimits } from "./helpers.js"

/** A fresh module with one sandbox and its snapshot, as a pool worker holds them. */
const snapshotted = async (options?: SnapshotOptions) => {
  const module = await loadQuickJsModule()
  const snapshot = snapshotSandbox(module, createSandbox(module), options)
  if (!snapshot) throw new Error("this module's layout gives no snapshot")
  return { module, snapshot }
}

const { invoke } = recordingInvoke({ "svc.echo": (args) => args })

/** Runs `code` in the snapshot's sandbox, then puts it back. */
const runRestored = async (
  module: Awaited<ReturnType<typeof snapshotted>>["module"],
  snapshot: SandboxSnapshot,
  code: string,
  limits = testLimits,
) => {
  const run = await runInSandbox(module, code, { invoke, limits, takeSandbox: () => snapshot.sandbox })
  expect(run.poisoned).toBe(false)
  snapshot.restore()
  return run.outcome
}

/** Runs `code` in a sandbox of its own, made and disposed as without snapshots. */
const runFresh = async (
  module: Awaited<ReturnType<typeof snapshotted>>["module"],
  code: string,
  limits = testLimits,
): Promise<RunOutcome> => {
  const run = await runInSandbox(module, code, { invoke, limits })
  expect(run.dispose()).toBe(true)
  return run.outcome
}

const memoryUsage = (snapshot: SandboxSnapshot) => snapshot.sandbox.runtime.dumpMemoryUsage()

/**
 * Where the module's memory differs from `before`, as "start-end" byte ranges, leaving out the ranges the
 * snapshot leaves as they are on purpose; memory grown since must be all zeros.
 */
const memoryDiff = (before: Uint8Array, now: Uint8Array, leftAsIs: SandboxSnapshot["leftAsIs"]): string[] => {
  const was = new Uint32Array(before.buffer)
  const is = new Uint32Array(now.buffer, 0, now.length / 4)
  const skipped = (index: number) =>
    leftAsIs.some(({ start, length }) => index * 4 >= start && index * 4 < start + length)
  const ranges: string[] = []
  let from = -1
  for (let index = 0; index <= is.length; index++) {
    const differs = index < is.length && is[index] !== (index < was.length ? was[index] : 0) && !skipped(index)
    if (differs && from < 0) from = index
    if (!differs && from >= 0) {
      ranges.push(`${from * 4}-${index * 4}`)
      from = -1
    }
  }
  return ranges
}

/** runs that write much of the memory a run can reach: heap past the snapshot's, memory grown, the deepest stack */
const memoryHeavyRuns = [
  "globalThis.keep = []; for (let i = 0; i < 5e4; i++) keep.push({ i, s: 'x' + i }); return keep.length",
  "const big = 'y'.repeat(20 << 20) + '\\u2713'; return big.length",
  "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)",
  // deeper JSON overflows V8's own stack on this (main) thread before QuickJS's limit, which poisons the module
  "return JSON.parse('['.repeat(1e3) + ']'.repeat(1e3)).length",
  "let o: any = {}; for (let i = 0; i < 1e3; i++) o = { o }; return JSON.stringify(o).length",
  "return /(a|b|c)*d(e+)+$/.exec('abc'.repeat(2e4) + 'deee')?.length",
  "const a = Array.from({ length: 1e5 }, (_, i) => (i * 7919) % 1e5); a.sort((x, y) => x - y); return a[5]",
  "const t = new Float64Array(1e6).map((_, i) => i / 3); const b = new ArrayBuffer(8, { maxByteLength: 1 << 22 }); " +
    "b.resize(1 << 22); return t[7] + b.byteLength",
  "const r = await tools.svc.echo({ text: 'z'.repeat(1e5) }); console.log(r.data.text.slice(0, 10)); " +
    "emit({ type: 'text', text: 't' }); throw new Error('thrown ' + r.data.text.length)",
  "function g(n: number): number { return n === 0 ? 0 : 1 + g(n - 1) }\nreturn [1e3, 2e3].map(g)",
]

describe("sandbox snapshot", () => {
  test("a run after a restore answers exactly as a run in a sandbox made for it", async () => {
    const { module, snapshot } = await snapshotted()
    const scripts = [
      "return 1 + 1",
      "let s = 0\nfor (let i = 0; i < 20; i++) s += (await tools.svc.echo({ i })).data.i\nconsole.log('sum', s)\nreturn s",
      "emit({ type: 'text', text: 'block' })\nreturn [typeof tools, typeof console, typeof emit]",
      "globalThis.leak = 1; Object.prototype.polluted = 2; Array.prototype.push = null; return 'polluted'",
      "return [typeof globalThis.leak, ({} as any).polluted, typeof [].push, Object.getOwnPropertyNames(globalThis).length]",
      "throw new TypeError('boom')",
      "const a: object[] = []\nfor (let i = 0; i < 1e5; i++) a.push({ i })\nreturn a.length",
      "return [new Date(0).toISOString(), /a+b/.exec('xaab')?.[0], JSON.stringify(new Map([[1, 2]])), [3, 1, 2].sort()]",
      "await new Promise(() => {})",
      "const u = new Uint8Array(4); u[0] = 7; return [u[0], typeof ArrayBuffer, Symbol('s').toString(), 2n ** 70n + '']",
    ]
    for (let round = 0; round < 3; round++) {
      for (const code of scripts)
        expect(await runRestored(module, snapshot, code), code).toEqual(await runFresh(module, code))
    }
  })

  test("each restore leaves QuickJS's memory as the snapshot found it, whatever the run did", async () => {
    const { module, snapshot } = await snapshotted()
    // read once first: reading the figures allocates, so both reads are made from the same state
    snapshot.restore()
    const atSnapshot = memoryUsage(snapshot)
    snapshot.restore()
    const runs = [
      "globalThis.keep = []; for (let i = 0; i < 5e4; i++) keep.push({ i, s: 'x' + i }); return keep.length",
      "const big = 'y'.repeat(20 << 20); return big.length",
      "console.log('a'); emit({ type: 'text', text: 't' }); return (await tools.svc.echo({ a: 1 })).data",
      "throw 'a string'",
    ]
    for (const code of runs) {
      await runRestored(module, snapshot, code, { ...testLimits, memoryBytes: 64 << 20 })
      expect(memoryUsage(snapshot)).toBe(atSnapshot)
      snapshot.restore()
    }
  })

  test("after any run, a restore leaves the whole memory as it was at the snapshot, but for the words left on purpose", async () => {
    // Compares every byte of the module's memory, not just the parts the snapshot knows it copies: a quickjs-emscripten
    // upgrade that keeps state somewhere new, or a run that writes where nothing clears, fails here.
    const { module, snapshot } = await snapshotted()
    expect(snapshot.leftAsIs.map(({ why }) => why)).toEqual(["Math.random's state, seeded afresh at each restore"])
    const atSnapshot = new Uint8Array(module.getWasmMemory().buffer).slice()
    for (const code of memoryHeavyRuns) {
      await runRestored(module, snapshot, code, { ...testLimits, memoryBytes: 128 << 20, timeoutMs: 20_000 })
      expect(memoryDiff(atSnapshot, new Uint8Array(module.getWasmMemory().buffer), snapshot.leftAsIs), code).toEqual([])
    }
    expect(module.getWasmMemory().buffer.byteLength).toBeGreaterThan(atSnapshot.length)
  }, 60_000)

  test("without clearing (benchmarks only), the same comparison finds what runs left in the heap and the stack", async () => {
    const { module, snapshot } = await snapshotted({ clearMemory: false })
    const atSnapshot = new Uint8Array(module.getWasmMemory().buffer).slice()
    await runRestored(module, snapshot, memoryHeavyRuns[0]!)
    await runRestored(module, snapshot, memoryHeavyRuns[2]!)
    expect(
      memoryDiff(atSnapshot, new Uint8Array(module.getWasmMemory().buffer), snapshot.leftAsIs).length,
    ).toBeGreaterThan(0)
  })

  test("Math.random gives new numbers in every run, not the snapshot's", async () => {
    const { module, snapshot } = await snapshotted()
    const values = new Set<unknown>()
    for (let run = 0; run < 50; run++)
      values.add(expectValue(await runRestored(module, snapshot, "return Math.random()")))
    expect(values.size).toBe(50)
  })

  test.each([
    ["made on each run's first read", false],
    ["made before the snapshot", true],
  ])("the sandbox's Date %s: each run replays its own clock, or none", async (_name, makeDate) => {
    const { module, snapshot } = await snapshotted({ makeDate })
    const code =
      "const made = 'value' in Object.getOwnPropertyDescriptor(globalThis, 'Date')!\nreturn [made, Date.now()]"
    for (const clock of [[1000], undefined, [2000], [3000], undefined]) {
      const before = Date.now()
      const determinism = clock && { seed: "0000000000000001", clock }
      const run = await runInSandbox(module, code, {
        invoke,
        limits: testLimits,
        takeSandbox: () => snapshot.sandbox,
        ...(determinism ? { determinism } : {}),
      })
      snapshot.restore()
      const [made, now] = expectValue(run.outcome) as [boolean, number]
      expect(made).toBe(makeDate)
      if (clock) expect(now).toBe(clock[0])
      else expect(now).toBeGreaterThanOrEqual(before)
    }
    // a sandbox made for one run keeps the context's own Date, which reads the same clock, unless the run has
    // determinism: it then makes its own on the first read, as it makes tools
    expect(expectValue(await runFresh(module, code))).toEqual([true, expect.any(Number)])
    const determinism = { seed: "0000000000000001", clock: [4000] }
    const fresh = await runInSandbox(module, code, { invoke, limits: testLimits, determinism })
    expect(fresh.dispose()).toBe(true)
    expect(expectValue(fresh.outcome)).toEqual([false, 4000])
  })

  test("a snapshot taken again after runs, with Date made (as a pool worker does), puts the whole memory back too", async () => {
    const limits = { ...testLimits, memoryBytes: 128 << 20, timeoutMs: 20_000 }
    const { module, snapshot: first } = await snapshotted()
    for (const code of memoryHeavyRuns.slice(0, 3)) await runRestored(module, first, code, limits)
    const snapshot = snapshotSandbox(module, first.sandbox, { makeDate: true })
    if (!snapshot) throw new Error("no second snapshot")
    const atSnapshot = new Uint8Array(module.getWasmMemory().buffer).slice()
    for (const code of [...memoryHeavyRuns, "return [Date.now(), new Date(0).toISOString(), Date()]"]) {
      await runRestored(module, snapshot, code, limits)
      expect(memoryDiff(atSnapshot, new Uint8Array(module.getWasmMemory().buffer), snapshot.leftAsIs), code).toEqual([])
    }
    const replayed = await runInSandbox(module, "await tools.svc.echo({})\nreturn [Date.now(), Math.random()]", {
      invoke,
      limits,
      takeSandbox: () => snapshot.sandbox,
      determinism: { seed: "0000000000000001", clock: [5000] },
    })
    snapshot.restore()
    expect(expectValue(replayed.outcome)).toEqual([5000, expect.any(Number)])
  }, 60_000)

  test.each([
    // newBigInt keeps a handle on the BigInt constructor, made in memory the restore overwrites
    ["a cached handle", (snapshot: SandboxSnapshot) => snapshot.sandbox.context.newBigInt(1n).dispose()],
    // the runtime makes and keeps a context of its own for this
    ["a context", (snapshot: SandboxSnapshot) => snapshot.sandbox.runtime.computeMemoryUsage().dispose()],
  ])("a restore refuses when the host side made %s the copy would take back", async (_name, make) => {
    const { snapshot } = await snapshotted()
    make(snapshot)
    expect(() => snapshot.restore()).toThrow(/cannot be restored/)
  })

  test("a tool result that comes back after its run ended never reaches the next run", async () => {
    const { module, snapshot } = await snapshotted()
    const later = (ms: number, data: unknown) =>
      new Promise((resolve) => setTimeout(() => resolve({ ok: true, data }), ms))
    const answers: Record<string, [number, string]> = {
      "svc.late": [20, "late"],
      "svc.fast": [40, "fast"],
      "svc.slow": [80, "slow"],
    }
    const timed = (path: string) => later(...answers[path]!)
    const run = (code: string) =>
      runInSandbox(module, code, { invoke: timed as never, limits: testLimits, takeSandbox: () => snapshot.sandbox })
    // the first run ends with a call still out; its result lands while the second run waits on its own calls
    expect(expectValue((await run("tools.svc.late({})\nreturn 'first'")).outcome)).toBe("first")
    snapshot.restore()
    const second = await run(
      "const fast = tools.svc.fast({})\nconst slow = tools.svc.slow({})\nawait fast\nreturn (await slow).data",
    )
    expect(expectValue(second.outcome)).toBe("slow")
    snapshot.restore()
  })

  test("it copies back a small part of the module's memory", async () => {
    const { module, snapshot } = await snapshotted()
    console.log(
      `sandbox snapshot: ${snapshot.bytes} bytes copied back per run, of ${module.getWasmMemory().buffer.byteLength}`,
    )
    expect(snapshot.bytes).toBeLessThan(1 << 20)
  })
})
