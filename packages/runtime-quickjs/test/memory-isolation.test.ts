import type { CodeRuntime, InvokeTool, RunOutcome, ToolResult } from "@switchboard/core"
import { afterAll, describe, expect, test } from "vitest"
import { createQuickJsRuntime, loadQuickJsModule } from "../src/index.js"
import { createWorkerPoolRuntime } from "../src/node/index.js"
import type { WorkerPoolRuntime } from "../src/node/index.js"
import { runInSandbox } from "../src/run-script.js"
import { createSandbox } from "../src/sandbox.js"
import { snapshotSandbox } from "../src/sandbox-snapshot.js"
import { expectValue, testLimits } from "./helpers.js"

/**
 * No run observes bytes an earlier run wrote (issue 13). A victim run writes a unique 32-byte canary every way a
 * script can (a real tool result, Latin-1 and UTF-16 strings, an array, a typed array, an error message, a log
 * line, JSON); attacker runs on the same module then try every path that hands a script raw memory and scan all
 * they can read for the canary's bytes, in its Latin-1 and its UTF-16 form. Any 16 bytes of it found fail.
 *
 * The canary is "cnry" and 28 random lowercase letters. The attacker must not hold the canary itself (a read past
 * a buffer's end would then find the attacker's own copy): it looks for any 16 lowercase letters in a row, in
 * either form, with a native regular expression, and returns what it found; the host keeps the matches that
 * hold part of the canary.
 */

const limits = { ...testLimits, timeoutMs: 30_000, memoryBytes: 96 << 20, maxResultBytes: 1 << 20 }

const newCanary = () =>
  `cnry${Array.from(crypto.getRandomValues(new Uint8Array(28)), (b) => String.fromCharCode(97 + (b % 26))).join("")}`

const victim = (canary: string) => `
const canary = ${JSON.stringify(canary)}
const fromTool = await tools.vault.secret({})
const keep: unknown[] = [fromTool, JSON.stringify(fromTool)]
for (let i = 0; i < 64; i++) {
  keep.push("latin1:" + canary + i, "wide\\u2713" + canary + i, canary.split(""), [canary, i])
  keep.push(Uint8Array.from(canary, (c) => c.charCodeAt(0)), new Uint16Array(Array.from(canary, (c) => c.charCodeAt(0))))
  try { throw new Error("failed with " + canary + i) } catch (error) { keep.push(error, String(error)) }
  keep.push({ [canary + i]: canary })
}
console.log("token", canary)
;(globalThis as any).keep = keep
return keep.length`

/** Run in the attacker: collects every run of 16+ lowercase letters in a Uint8Array, as Latin-1 and as UTF-16. */
const scanner = `
const found = new Map()
const errors = []
const latin1 = /[a-z]{16,}/g
const wide = /(?:[a-z]\\0){16,}/g
// from the next lowercase letter on (typed arrays' indexOf is native; turning bytes into text is not)
const scan = (label, bytes) => {
  for (let i = 0; i < bytes.length && found.size < 500; ) {
    let next = bytes.length
    for (let letter = 97; letter <= 122; letter++) {
      const at = bytes.indexOf(letter, i)
      if (at >= 0 && at < next) next = at
    }
    if (next === bytes.length) return
    const text = String.fromCharCode.apply(null, bytes.subarray(next, Math.min(bytes.length, next + 16384 + 128)))
    for (const match of text.match(latin1) ?? []) found.set(match, label)
    for (const match of text.match(wide) ?? []) found.set(match.replace(/\\0/g, ""), label)
    i = next + 16384
  }
}
const attempt = (label, make) => { try { const bytes = make(); if (bytes) scan(label, bytes) } catch (error) { errors.push(label + ": " + error) } }
const sizes = [64 << 10, 1 << 20, 3 << 20]
`

/** Every path that reaches raw memory, one attacker run each (a path that traps the module must not hide the others). */
const attacks: Record<string, string> = {
  "SharedArrayBuffer grow": `for (const n of sizes) attempt("SharedArrayBuffer(1, { maxByteLength: " + n + " }).grow", () => {
    if (typeof SharedArrayBuffer !== "function") return
    const b = new SharedArrayBuffer(1, { maxByteLength: n }); b.grow(n); return new Uint8Array(b) })`,
  "SharedArrayBuffer grow through typed arrays, DataView, slice and Atomics": `
    const views = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
      "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]
    for (const name of views) attempt("SharedArrayBuffer + " + name, () => {
      if (typeof SharedArrayBuffer !== "function") return
      const b = new SharedArrayBuffer(8, { maxByteLength: 1 << 20 }); const view = new globalThis[name](b); b.grow(1 << 20)
      return new Uint8Array(view.buffer, 0, view.length * view.BYTES_PER_ELEMENT) })
    attempt("SharedArrayBuffer grow, slice", () => {
      if (typeof SharedArrayBuffer !== "function") return
      const b = new SharedArrayBuffer(1, { maxByteLength: 1 << 20 }); b.grow(1 << 20); return new Uint8Array(b.slice(0)) })
    attempt("SharedArrayBuffer grow, DataView", () => {
      if (typeof SharedArrayBuffer !== "function") return
      const b = new SharedArrayBuffer(1, { maxByteLength: 256 << 10 }); b.grow(256 << 10); const d = new DataView(b)
      const out = new Uint8Array(d.byteLength); for (let i = 0; i < out.length; i++) out[i] = d.getUint8(i); return out })
    attempt("SharedArrayBuffer grow, Atomics.load", () => {
      if (typeof SharedArrayBuffer !== "function" || typeof Atomics !== "object") return
      const b = new SharedArrayBuffer(4, { maxByteLength: 256 << 10 }); b.grow(256 << 10); const words = new Int32Array(b)
      const out = new Int32Array(words.length); for (let i = 0; i < out.length; i++) out[i] = Atomics.load(words, i); return new Uint8Array(out.buffer) })`,
  "resizable ArrayBuffer": `for (const n of sizes) {
    attempt("ArrayBuffer(1, { maxByteLength }).resize(" + n + ")", () => {
      const b = new ArrayBuffer(1, { maxByteLength: n }); b.resize(n); return new Uint8Array(b) })
    attempt("ArrayBuffer resize down then up " + n, () => {
      const b = new ArrayBuffer(n, { maxByteLength: n }); new Uint8Array(b).fill(0); b.resize(1); b.resize(n); return new Uint8Array(b) })
    attempt("length-tracking Float64Array over a resized ArrayBuffer " + n, () => {
      const b = new ArrayBuffer(8, { maxByteLength: n }); const f = new Float64Array(b); b.resize(n); return new Uint8Array(f.buffer) })
  }`,
  "ArrayBuffer transfer": `for (const n of sizes) {
    attempt("ArrayBuffer(16).transfer(" + n + ")", () => new Uint8Array(new ArrayBuffer(16).transfer(n)))
    attempt("ArrayBuffer(16).transferToFixedLength(" + n + ")", () => new Uint8Array(new ArrayBuffer(16).transferToFixedLength(n)))
    attempt("resizable ArrayBuffer transfer(" + n + ")", () => new Uint8Array(new ArrayBuffer(16, { maxByteLength: n }).transfer(n)))
    attempt("ArrayBuffer slice " + n, () => new Uint8Array(new ArrayBuffer(n).slice(1)))
  }`,
  "fresh large allocations of every typed array": `
    const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
      Float32Array, Float64Array, BigInt64Array, BigUint64Array]
    if (typeof Float16Array === "function") kinds.push(Float16Array)
    for (const n of sizes) {
      attempt("new ArrayBuffer(" + n + ")", () => new Uint8Array(new ArrayBuffer(n)))
      for (const Kind of kinds) attempt("new " + Kind.name + " of " + n + " bytes", () => new Uint8Array(new Kind(n / Kind.BYTES_PER_ELEMENT).buffer))
    }
    attempt("DataView over a fresh ArrayBuffer", () => {
      const d = new DataView(new ArrayBuffer(256 << 10))
      const out = new Uint8Array(d.byteLength); for (let i = 0; i < out.length; i++) out[i] = d.getUint8(i); return out })
    attempt("Atomics over a fresh ArrayBuffer", () => {
      if (typeof Atomics !== "object") return
      const words = new Int32Array(64 << 10); const out = new Int32Array(words.length)
      for (let i = 0; i < out.length; i++) out[i] = Atomics.load(words, i); return new Uint8Array(out.buffer) })`,
}

/** the scanner's own check: it finds the canary where the attacker itself wrote it */
const control = (canary: string) =>
  `attempt("control", () => {
    const b = new Uint16Array(1 << 19); const text = ${JSON.stringify(canary.slice(8))}
    for (let i = 0; i < text.length; i++) b[300000 + i] = text.charCodeAt(i); return new Uint8Array(b.buffer) })`

const attackerScript = (body: string) => `${scanner}\n${body}\nreturn { found: [...found], errors }`

/** the attacker's matches that hold 16 bytes of the canary, with the path that read them */
const canaryHits = (canary: string, outcome: RunOutcome): string[] => {
  const { found } = expectValue(outcome) as { found: [string, string][] }
  const windows = Array.from({ length: 17 }, (_, at) => canary.slice(at, at + 16))
  return found
    .filter(([match]) => windows.some((window) => match.includes(window)))
    .map(([match, label]) => `${label}: ${match}`)
}

/** the tool the victim calls: a real invoke whose result holds the canary */
const vaultInvoke =
  (canary: string): InvokeTool =>
  async (path) =>
    path === "vault.secret"
      ? ({ ok: true, data: { token: `token=${canary}`, note: canary } } satisfies ToolResult)
      : { ok: false, error: { code: "tool_not_found", message: path } }
const noTools: InvokeTool = async (path) => ({ ok: false, error: { code: "tool_not_found", message: path } })

type Run = (code: string, invoke: InvokeTool) => Promise<RunOutcome>

/** The victim, then each attacker, on the same module; the findings of all attackers. */
const attack = async (run: Run) => {
  const canary = newCanary()
  expect(expectValue(await run(victim(canary), vaultInvoke(canary)))).toBeGreaterThan(0)
  const findings: string[] = []
  for (const [name, body] of Object.entries(attacks)) {
    const outcome = await run(attackerScript(body), noTools)
    if (!outcome.ok) findings.push(`${name}: the attacker failed (${outcome.error.code}: ${outcome.error.message})`)
    else findings.push(...canaryHits(canary, outcome))
  }
  return findings
}

const pools: WorkerPoolRuntime[] = []
afterAll(() => Promise.all(pools.map((pool) => pool.close())))

const viaRuntime =
  (runtime: CodeRuntime): Run =>
  (code, invoke) =>
    runtime.run(code, { invoke, limits })

const setups: [string, () => Promise<Run>][] = [
  ["in-thread runtime (a fresh sandbox per run)", async () => viaRuntime(await createQuickJsRuntime())],
  [
    "in-thread, one sandbox put back by its snapshot",
    async () => {
      const module = await loadQuickJsModule()
      const snapshot = snapshotSandbox(module, createSandbox(module))
      if (!snapshot) throw new Error("no snapshot")
      return async (code, invoke) => {
        const run = await runInSandbox(module, code, { invoke, limits, takeSandbox: () => snapshot.sandbox })
        snapshot.restore()
        return run.outcome
      }
    },
  ],
  ...([true, false] as const).map((snapshots): [string, () => Promise<Run>] => [
    `worker pool, snapshots ${snapshots ? "on" : "off"}`,
    async () => {
      // the attacker must run on the victim's worker: no idle trim replaces it between their runs
      const pool = await createWorkerPoolRuntime({ size: 1, snapshots, trimIdleAfterMs: 10 * 60_000 })
      pools.push(pool)
      return viaRuntime(pool)
    },
  ]),
]

describe("memory isolation between runs", () => {
  test("the scanner finds a canary the attacker wrote itself", async () => {
    const runtime = await createQuickJsRuntime()
    const canary = newCanary()
    const outcome = await runtime.run(attackerScript(control(canary)), { invoke: noTools, limits })
    expect(canaryHits(canary, outcome)).toEqual([`control: ${canary.slice(8)}`])
  })

  test("every path that hands a script a buffer hands it zeroed memory, even memory the script just freed", async () => {
    // the first layer of the defence (README, "Memory isolation between runs"): it guards the QuickJS facts it
    // rests on across an upgrade. Each path runs right after a buffer of 0xab bytes of the same size was freed.
    const code = `
      const paths = {
        "new ArrayBuffer": (n) => new ArrayBuffer(n),
        "ArrayBuffer resize": (n) => { const b = new ArrayBuffer(1, { maxByteLength: n }); b.resize(n); return b },
        "ArrayBuffer resize down and up": (n) => {
          const b = new ArrayBuffer(n, { maxByteLength: n }); new Uint8Array(b).fill(0xab, 1); b.resize(1); b.resize(n); return b
        },
        "ArrayBuffer transfer": (n) => new ArrayBuffer(16).transfer(n),
        "resizable ArrayBuffer transfer": (n) => new ArrayBuffer(16, { maxByteLength: n }).transfer(n),
        "ArrayBuffer transferToFixedLength": (n) => new ArrayBuffer(16).transferToFixedLength(n),
        "ArrayBuffer slice": (n) => new ArrayBuffer(n + 1).slice(1),
        "Float64Array": (n) => new Float64Array(n / 8).buffer,
        "BigUint64Array": (n) => new BigUint64Array(n / 8).buffer,
        "Uint16Array from an iterable": (n) => Uint16Array.from({ length: n / 2 }).buffer,
        "typed array subarray copy": (n) => new Uint8Array(new Uint8Array(n)).buffer,
      }
      const dirty = []
      for (const [name, make] of Object.entries(paths)) {
        for (const n of [4096, 65536, 1 << 20]) {
          new Uint8Array(n).fill(0xab)
          if (new Uint8Array(make(n)).indexOf(0xab) >= 0) dirty.push(name + " " + n)
        }
      }
      return [typeof SharedArrayBuffer, dirty]`
    const runtime = await createQuickJsRuntime()
    expect(expectValue(await runtime.run(code, { invoke: noTools, limits }))).toEqual(["undefined", []])
  })

  test.each(setups)(
    "%s: no attacker run finds a byte sequence of an earlier run's canary",
    async (_name, setup) => {
      const run = await setup()
      const findings = [...(await attack(run)), ...(await attack(run))]
      expect(findings).toEqual([])
    },
    120_000,
  )
})
