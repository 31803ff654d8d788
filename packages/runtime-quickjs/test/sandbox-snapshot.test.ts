import type { RunOutcome } from "@switchboard/core"
import { describe, expect, test } from "vitest"
import { loadQuickJsModule } from "../src/index.js"
import { runInSandbox } from "../src/run-script.js"
import { createSandbox } from "../src/sandbox.js"
import { snapshotSandbox } from "../src/sandbox-snapshot.js"
import type { SandboxSnapshot } from "../src/sandbox-snapshot.js"
import { expectValue, recordingInvoke, testLimits } from "./helpers.js"

/** A fresh module with one sandbox and its snapshot, as a pool worker holds them. */
const snapshotted = async () => {
  const module = await loadQuickJsModule()
  const snapshot = snapshotSandbox(module, createSandbox(module))
  if (!snapshot) throw new Error("this module's layout gives no snapshot")
  return { module, snapshot }
}

const { invoke } = recordingInvoke({ "svc.echo": (args) => args })

/** Runs `code` in the snapshot's sandbox, then puts it back. */
const runRestored = async (module: Awaited<ReturnType<typeof snapshotted>>["module"], snapshot: SandboxSnapshot, code: string, limits = testLimits) => {
  const run = await runInSandbox(module, code, { invoke, limits, takeSandbox: () => snapshot.sandbox })
  expect(run.poisoned).toBe(false)
  snapshot.restore()
  return run.outcome
}

/** Runs `code` in a sandbox of its own, made and disposed as without snapshots. */
const runFresh = async (module: Awaited<ReturnType<typeof snapshotted>>["module"], code: string, limits = testLimits): Promise<RunOutcome> => {
  const run = await runInSandbox(module, code, { invoke, limits })
  expect(run.dispose()).toBe(true)
  return run.outcome
}

const memoryUsage = (snapshot: SandboxSnapshot) => snapshot.sandbox.runtime.dumpMemoryUsage()

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
      for (const code of scripts) expect(await runRestored(module, snapshot, code), code).toEqual(await runFresh(module, code))
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

  test("Math.random gives new numbers in every run, not the snapshot's", async () => {
    const { module, snapshot } = await snapshotted()
    const values = new Set<unknown>()
    for (let run = 0; run < 50; run++) values.add(expectValue(await runRestored(module, snapshot, "return Math.random()")))
    expect(values.size).toBe(50)
  })

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
    const later = (ms: number, data: unknown) => new Promise((resolve) => setTimeout(() => resolve({ ok: true, data }), ms))
    const answers: Record<string, [number, string]> = { "svc.late": [20, "late"], "svc.fast": [40, "fast"], "svc.slow": [80, "slow"] }
    const timed = (path: string) => later(...answers[path]!)
    const run = (code: string) => runInSandbox(module, code, { invoke: timed as never, limits: testLimits, takeSandbox: () => snapshot.sandbox })
    // the first run ends with a call still out; its result lands while the second run waits on its own calls
    expect(expectValue((await run("tools.svc.late({})\nreturn 'first'")).outcome)).toBe("first")
    snapshot.restore()
    const second = await run("const fast = tools.svc.fast({})\nconst slow = tools.svc.slow({})\nawait fast\nreturn (await slow).data")
    expect(expectValue(second.outcome)).toBe("slow")
    snapshot.restore()
  })

  test("it copies back a small part of the module's memory", async () => {
    const { module, snapshot } = await snapshotted()
    console.log(`sandbox snapshot: ${snapshot.bytes} bytes copied back per run, of ${module.getWasmMemory().buffer.byteLength}`)
    expect(snapshot.bytes).toBeLessThan(1 << 20)
  })
})
