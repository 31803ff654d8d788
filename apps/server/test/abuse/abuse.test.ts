/**
 * The escape and abuse suite: one row per hostile script, over real HTTP against a server whose scripts
 * run in the worker pool. Every row asserts its error code (or the exact safe value), that /healthz answers
 * while the row runs, and that the next execution finds a pristine sandbox. One worker, so the probe runs
 * on the very worker the row used, unless the row got it killed.
 */
import { fixtureCommand } from "@switchboard/fixtures"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

interface Row {
  name: string
  code: string
  timeoutMs?: number
  /** limits the request lowers */
  limits?: Record<string, number>
  /** the run's error code */
  error?: string
  /** the exact value the script returns */
  value?: unknown
  /** further checks on the execute response */
  check?: (body: any) => void | Promise<void>
}

const limits = { timeoutMs: 5_000, maxToolCalls: 20, maxResultBytes: 1 << 20, maxLogLines: 20, maxLogBytes: 4096 }
const short = 300

/** What a clean sandbox looks like; compared before and after every row. */
const probe = `return {
  objectProto: Object.getOwnPropertyNames(Object.prototype).sort(),
  arrayProto: Object.getOwnPropertyNames(Array.prototype).sort(),
  functionProto: Object.getOwnPropertyNames(Function.prototype).sort(),
  globals: Object.getOwnPropertyNames(globalThis).sort(),
  inherited: [({} as any).polluted, ([] as any).polluted, typeof (Object.prototype as any).leak],
  frozen: Object.isFrozen(Object.prototype),
  json: JSON.stringify({ a: [1, 'x'] }) + typeof JSON.parse,
  array: [1, 2].concat([3]).map((n) => n * 2).length,
  sandbox: [typeof tools, typeof tools.fx.echo, typeof console.log],
}`

const rows: Row[] = [
  // the research cases
  { name: "while (true) {}", code: "while (true) {}", timeoutMs: short, error: "timeout" },
  {
    name: "a loop inside one builtin: 'x'.repeat(1e7)",
    code: "for (;;) 'x'.repeat(1e7)",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "a builtin loop after logging: the worker is killed, the log comes back",
    code: "console.log('before the loop')\nconsole.error({ step: 1 })\nfor (;;) 'x'.repeat(1e7)",
    timeoutMs: short,
    error: "timeout",
    check: (body) =>
      expect(body.logs).toEqual([
        { level: "log", message: "before the loop" },
        { level: "error", message: `{"step":1}` },
      ]),
  },
  {
    name: "JSON.parse of 2 MB in a loop",
    code: "const s = '[' + '1,'.repeat(1e6) + '1]'\nfor (;;) JSON.parse(s)",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "new Array(1e5).fill(1) in a loop",
    code: "for (;;) new Array(1e5).fill(1)",
    timeoutMs: short,
    error: "timeout",
  },
  { name: "ReDoS /(a+)+$/", code: "/(a+)+$/.test('a'.repeat(40) + 'b')", timeoutMs: short, error: "timeout" },
  {
    name: "strings of 1 MiB until memory runs out",
    code: "const a = []\nfor (;;) a.push('x'.repeat(1 << 20) + a.length)",
    error: "memory_limit",
  },
  {
    name: "300 typed arrays of 512 KiB (bodies QuickJS does not count)",
    code: "const k = []\nfor (let i = 0; i < 300; i++) k.push(new Uint8Array(1 << 19))\nreturn k.length",
    error: "memory_limit",
  },
  {
    name: "an object graph until memory runs out",
    code: "const a = []\nfor (;;) a.push({ i: a.length, s: [1, 2] })",
    error: "memory_limit",
  },
  { name: "one 1 GiB ArrayBuffer", code: "return new ArrayBuffer(2 ** 30).byteLength", error: "memory_limit" },
  {
    name: "deep recursion",
    code: "function f(n: number): number { return f(n + 1) + 1 }\nf(0)",
    error: "stack_overflow",
  },
  {
    name: "recursion through a getter",
    code: "const o = { get x(): any { return this.x } }\nreturn o.x",
    error: "stack_overflow",
  },
  {
    name: "200k objects allocated in a promise job (once made dispose abort the module)",
    code: "Promise.resolve().then(() => { const a = []; for (let i = 0; i < 2e5; i++) a.push({ i }) })\nreturn 'done'",
    value: "done",
  },
  {
    name: "an endless chain of promise jobs",
    code: "const f = (): any => Promise.resolve().then(f)\nf()\nawait new Promise(() => {})",
    timeoutMs: short,
    error: "timeout",
  },
  { name: "a promise nothing can settle", code: "await new Promise(() => {})", error: "never_settled" },

  // reaching out of the sandbox
  {
    name: "constructor.constructor('return this')()",
    code: "const g = constructor.constructor('return this')()\nreturn [g === globalThis, typeof g.process, typeof g.require]",
    value: [true, "undefined", "undefined"],
  },
  {
    name: "the AsyncFunction constructor",
    code: "return await (async () => {}).constructor('return [typeof process, typeof require, typeof module]')()",
    value: ["undefined", "undefined", "undefined"],
  },
  { name: "process.exit", code: "process.exit(1)", error: "runtime_error" },
  { name: "require('child_process')", code: "require('child_process').execSync('id')", error: "runtime_error" },
  { name: "dynamic import('node:fs')", code: "await import('node:fs')", error: "runtime_error" },
  {
    name: "QuickJS's own std and os modules",
    code: "const std = await import('std')\nreturn typeof std",
    error: "runtime_error",
  },
  { name: "a static import", code: "import fs from 'fs'\nreturn fs", error: "syntax_error" },
  { name: "fetch", code: "await fetch('http://127.0.0.1/')", error: "runtime_error" },
  { name: "WebAssembly", code: "return typeof WebAssembly", value: "undefined" },
  // a growable SharedArrayBuffer read the module's memory past its allocation, earlier runs' included (issue 13)
  {
    name: "SharedArrayBuffer is not there",
    code: "return [typeof SharedArrayBuffer, typeof globalThis.SharedArrayBuffer]",
    value: ["undefined", "undefined"],
  },
  { name: "Atomics is not there", code: "return typeof Atomics", value: "undefined" },
  {
    name: "new SharedArrayBuffer(1, { maxByteLength }).grow",
    code: "const b = new SharedArrayBuffer(1, { maxByteLength: 1 << 20 })\nb.grow(1 << 20)",
    error: "runtime_error",
  },
  {
    name: "the host functions behind tools and console",
    code: "return [typeof __switchboard_invoke, typeof __switchboard_log, Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__'))]",
    value: ["undefined", "undefined", []],
  },
  {
    name: "eval of host names",
    code: "return eval('[typeof process, typeof globalThis.Deno, typeof Bun]')",
    value: ["undefined", "undefined", "undefined"],
  },

  // state that would leak into the next execution
  {
    name: "prototype pollution of builtins",
    code: "(Object.prototype as any).polluted = 'yes';\n(Array.prototype as any).polluted = 1;\nArray.prototype.map = () => [];\nJSON.stringify = () => 'x';\nObject.freeze(Object.prototype);\nreturn 'polluted'",
    value: "polluted",
  },
  // tools, console and emit are made on their first read (runtime-quickjs sandbox-globals.ts)
  {
    name: "the first read of tools at the stack limit",
    code: "function f(): any { try { return f() } catch { return typeof tools } }\nreturn f()",
    value: "object",
  },
  {
    name: "Proxy replaced before the first read of tools (the script breaks only its own tools)",
    code: "globalThis.Proxy = function () { return { echo: () => 'fake' } } as any\nreturn [typeof tools, (tools as any).echo()]",
    value: ["object", "fake"],
  },
  {
    name: "the tools accessor taken before the first read, its setter given a trap",
    code: [
      "const { get, set } = Object.getOwnPropertyDescriptor(globalThis, 'tools')!",
      "const real = get!.call({})",
      "set!.call({}, new Proxy({}, { get: () => { throw new Error('trap') } }))",
      "return [typeof real.fx.echo, get!() === real, (await real.fx.echo({ message: 'still' })).data]",
    ].join("\n"),
    value: ["function", true, "still"],
  },
  {
    name: "replacing tools, console and globalThis properties",
    code: "(globalThis as any).tools = null;\n(globalThis as any).console = null;\n(globalThis as any).extra = 1;\nreturn 'replaced'",
    value: "replaced",
  },
  {
    name: "__proto__ in a tool argument",
    code: 'const r = await tools.fx.echo(JSON.parse(\'{"__proto__": {"polluted": 1}, "message": "m"}\'))\nreturn r.data',
    value: "m",
  },
  {
    name: "__proto__ in the result",
    code: 'return JSON.parse(\'{"__proto__": {"polluted": true}, "a": 1}\')',
    check: (body) => {
      expect(Object.getOwnPropertyNames(body.result).sort()).toEqual(["__proto__", "a"])
      expect(({} as any).polluted).toBeUndefined()
    },
  },

  // traps on values that cross the boundary: the host copies JSON text and never calls into guest objects
  {
    name: "a Proxy as tool arguments: its traps run once, inside the sandbox",
    code: [
      "let reads = 0",
      "const args = new Proxy({}, {",
      "  get: (_t, key) => (key === 'message' ? `read ${++reads}` : undefined),",
      "  ownKeys: () => ['message'],",
      "  getOwnPropertyDescriptor: () => ({ value: 'v', enumerable: true, configurable: true }),",
      "})",
      "const r = await tools.fx.echo(args)",
      "return { echoed: r.data, reads }",
    ].join("\n"),
    value: { echoed: "read 1", reads: 1 },
  },
  {
    name: "a getter in tool arguments",
    code: "const r = await tools.fx.echo({ get message() { return 'from a getter' } })\nreturn r.data",
    value: "from a getter",
  },
  {
    name: "a getter in tool arguments that never returns",
    code: "await tools.fx.echo({ get message() { for (;;) {} } })",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "toJSON side effects in tool arguments",
    code: "const r = await tools.fx.echo({ toJSON() { (Object.prototype as any).leak = 1; return { message: 'via toJSON' } } })\nreturn r.data",
    value: "via toJSON",
  },
  {
    name: "a Proxy result whose trap throws",
    code: "return new Proxy({}, { ownKeys() { throw new Error('trap') } })",
    error: "result_not_serializable",
  },
  {
    name: "a Proxy result whose trap never returns",
    code: "return new Proxy({}, { ownKeys() { for (;;) {} } })",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "a result getter that never returns",
    code: "return { get x() { for (;;) {} } }",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "toJSON side effects in the result",
    code: "return { toJSON() { (Object.prototype as any).leak = 1; return 'safe' } }",
    value: "safe",
  },
  {
    name: "valueOf that throws",
    code: "const o = { valueOf() { throw new Error('valueOf boom') } }\nreturn (o as any) + 1",
    error: "runtime_error",
  },
  {
    name: "a tool name whose toString never returns",
    code: "return (tools as any)[{ toString() { for (;;) {} } }]",
    timeoutMs: short,
    error: "timeout",
  },

  // values that JSON cannot carry as they are
  { name: "a cyclic result", code: "const a: any = { b: {} }\na.b.a = a\nreturn a", error: "result_not_serializable" },
  { name: "a BigInt result", code: "return { n: 2n ** 64n }", error: "result_not_serializable" },
  { name: "a Symbol result", code: "return Symbol('s')", error: "result_not_serializable" },
  { name: "NaN and the infinities", code: "return [NaN, Infinity, -Infinity]", value: [null, null, null] },
  { name: "-0", code: "return -0", value: 0, check: (body) => expect(body.text).toBe("0") },
  {
    name: "lone surrogates",
    code: "return 'a\\ud800b'",
    value: "a\ud800b",
    check: (body) => expect(body.text).toBe("a\ufffdb"),
  },
  { name: "a huge string result", code: "return 'x'.repeat(2 << 20)", error: "result_too_large" },
  {
    name: "deep nesting, 100k levels (QuickJS's JSON.stringify is quadratic in depth)",
    code: "let v: any = []\nfor (let i = 0; i < 1e5; i++) v = [v]\nreturn v",
    timeoutMs: short,
    error: "timeout",
  },
  {
    name: "deep nesting, 1,000 levels",
    code: "let v: any = 'leaf'\nfor (let i = 0; i < 1000; i++) v = [v]\nreturn v",
    check: (body) => {
      let depth = 0
      for (let v = body.result; Array.isArray(v); v = v[0]) depth++
      expect(depth).toBe(1000)
    },
  },

  // throwing and rejecting
  {
    name: "throwing a string",
    code: "throw 'not an error'",
    error: "runtime_error",
    check: (body) => expect(body.error.message).toBe('Uncaught "not an error"'),
  },
  { name: "throwing undefined", code: "throw undefined", error: "runtime_error" },
  {
    name: "throwing an object whose getters never return",
    code: "throw { get message() { for (;;) {} }, get name() { for (;;) {} } }",
    error: "runtime_error",
  },
  {
    name: "an unhandled rejection does not fail the run",
    code: "Promise.reject(new Error('ignored'))\nreturn 'fine'",
    value: "fine",
  },
  { name: "an awaited rejection", code: "await Promise.reject(new TypeError('rejected'))", error: "runtime_error" },

  // limits the host enforces
  {
    name: "past the tool call limit",
    code: "for (let i = 0; i < 50; i++) await tools.x.y({})\nreturn 'done'",
    error: "tool_call_limit",
  },
  { name: "a flood of tool calls that are never awaited", code: "for (;;) tools.x.y({})", error: "tool_call_limit" },
  {
    name: "past the log line limit: a marker says how much was dropped",
    code: "for (let i = 0; i < 100; i++) console.log('line ' + i)\nreturn 'logged'",
    value: "logged",
    check: (body) => {
      expect(body.logs).toHaveLength(limits.maxLogLines + 1)
      expect(body.logs.at(-1).message).toMatch(/^\[switchboard\] 80 more log lines \(\d+ bytes\) dropped/)
    },
  },
  {
    name: "one huge log line is dropped without being copied out",
    code: "console.log('x'.repeat(8 << 20))\nreturn 'logged'",
    value: "logged",
    check: (body) =>
      expect(body.logs).toEqual([
        { level: "warn", message: expect.stringMatching(/1 more log line \(8388608 bytes\) dropped/) },
      ]),
  },
  // issue 14: what a script throws, and what it passes to tools, is bounded before it leaves the sandbox
  {
    name: "throwing a 40 MB error message: the answer and the stored execution are bounded",
    code: "throw new Error('E'.repeat(40 << 20))",
    error: "runtime_error",
    check: async (body) => {
      expect(body.error.message.length).toBeLessThan(17_000)
      expect(body.error.message).toMatch(/^Error: E+ … \[switchboard: cut at 16384 of its 41943040 characters\]$/)
      expect(body.error.line).toBe(1)
      const stored = await server.request("GET", `/v1/executions/${body.executionId}`)
      expect(stored.status).toBe(200)
      expect(JSON.stringify(stored.body).length).toBeLessThan(20_000)
    },
  },
  {
    name: "throwing a 40 MB string",
    code: "throw 'S'.repeat(40 << 20)",
    error: "runtime_error",
    check: (body) =>
      expect(body.error.message).toMatch(/^Uncaught "S+ … \[switchboard: cut at 16384 of its 41943040 characters\]$/),
  },
  {
    name: "Promise.all of tool calls with 4 MB arguments each: every call refused, no tool called",
    code: "const big = 'x'.repeat(4 << 20)\nconst rs = await Promise.all(Array.from({ length: 20 }, () => tools.fx.echo({ message: big })))\nreturn [...new Set(rs.map((r) => (r.ok ? 'ok' : r.error.code)))]",
    value: ["tool_arguments_too_large"],
    check: async (body) => {
      const stored = await server.request("GET", `/v1/executions/${body.executionId}`)
      expect(stored.body.execution.calls).toEqual([])
    },
  },
  {
    name: "a request lowers maxToolArgBytes and maxToolArgBytesInFlight",
    code: [
      "const call = (n: number) => tools.fx.echo({ message: 'x'.repeat(n) })",
      "const one = await call(2000)",
      "const many = await Promise.all(Array.from({ length: 6 }, () => call(900)))",
      "return [one.ok ? 'ok' : one.error.code, many.map((r) => (r.ok ? 'ok' : r.error.code))]",
    ].join("\n"),
    limits: { maxToolArgBytes: 1000, maxToolArgBytesInFlight: 3000 },
    value: [
      "tool_arguments_too_large",
      ["ok", "ok", "ok", "tool_arguments_too_large", "tool_arguments_too_large", "tool_arguments_too_large"],
    ],
  },
  {
    name: "bytecode is never accepted: the code field is always source text",
    // the first bytes of a QuickJS bytecode object (BC_VERSION, then an atom count)
    code: "\u0005\u0002\u0000\u0001\u0002abc\u0000\u00fe",
    error: "syntax_error",
  },
]

let server: TestServer
let clean: unknown
const hostPrototype = Object.getOwnPropertyNames(Object.prototype).sort()

beforeAll(async () => {
  server = await startTestServer({ allowStdio: true, workers: 1, queue: 8, limits })
  const source = { namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } }
  expect((await server.request("POST", "/v1/sources", source)).status).toBe(201)
  clean = (await server.execute(probe)).result
}, 60_000)
afterAll(() => server?.stop())

describe("escape and abuse", () => {
  test("the table has at least 40 rows", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40)
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length)
  })

  test.each(rows.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const execute = server.request("POST", "/v1/execute", {
      code: row.code,
      ...(row.timeoutMs ? { timeoutMs: row.timeoutMs } : {}),
      ...(row.limits ? { limits: row.limits } : {}),
    })
    // the server answers while the row runs
    const health = await server.request("GET", "/healthz")
    expect(health).toMatchObject({ status: 200, body: { ok: true } })
    const { status, body } = await execute
    expect(status).toBe(200)
    if (row.error !== undefined) expect({ ok: body.ok, code: body.error?.code }).toEqual({ ok: false, code: row.error })
    else expect(body).toMatchObject({ ok: true })
    if ("value" in row) expect(body.result).toEqual(row.value)
    await row.check?.(body)

    // the next execution finds a pristine sandbox, and the host's own prototypes are untouched
    const next = await server.execute(probe)
    expect(next.result).toEqual(clean)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(hostPrototype)
    expect((await server.request("GET", "/healthz")).status).toBe(200)
  })

  test("an execution reads nothing of the one before it on the same worker (a canary from a tool result)", async () => {
    // runtime-quickjs test/memory-isolation.test.ts tries every path; this is the same check end to end. The
    // attacker holds no copy of the canary: it returns every run of 16+ lowercase letters it can read.
    const canary = `cnry${Array.from(crypto.getRandomValues(new Uint8Array(28)), (b) => String.fromCharCode(97 + (b % 26))).join("")}`
    const victim = await server.execute(
      `const r = await tools.fx.echo({ message: 'token=' + ${JSON.stringify(canary)} })\nconst keep: unknown[] = []\nfor (let i = 0; i < 2000; i++) keep.push(r.data + i, { [r.data + i]: i })\nconsole.log(r.data)\nreturn keep.length`,
    )
    expect(victim).toMatchObject({ ok: true, result: 4000 })
    const attacker = [
      "const found = new Set<string>()",
      "const scan = (bytes: Uint8Array) => { for (let i = 0; i < bytes.length; i += 8192) for (const m of String.fromCharCode.apply(null, bytes.subarray(i, i + 8192 + 64) as any).match(/[a-z]{16,}/g) ?? []) found.add(m) }",
      "const reads: (() => ArrayBuffer)[] = [",
      "  () => { const b = new (globalThis as any).SharedArrayBuffer(1, { maxByteLength: 3 << 20 }); b.grow(3 << 20); return b },",
      "  () => { const b = new ArrayBuffer(1, { maxByteLength: 3 << 20 }); (b as any).resize(3 << 20); return b },",
      "  () => (new ArrayBuffer(16) as any).transfer(3 << 20),",
      "  () => new ArrayBuffer(3 << 20),",
      "]",
      "for (const read of reads) { try { scan(new Uint8Array(read())) } catch {} }",
      "return [...found].slice(0, 1000)",
    ].join("\n")
    const read = await server.execute(attacker, { timeoutMs: 20_000 })
    expect(read).toMatchObject({ ok: true })
    const windows = Array.from({ length: 17 }, (_, at) => canary.slice(at, at + 16))
    expect((read.result as string[]).filter((match) => windows.some((window) => match.includes(window)))).toEqual([])
  }, 60_000)
})
