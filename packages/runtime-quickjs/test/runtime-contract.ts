import type { CodeRuntime, InvokeTool, ToolResult } from "@switchboard/core"
import { beforeAll, describe, expect, test } from "vitest"
import { describeDeterminismContract } from "./determinism-contract.js"
import { expectError, expectValue, noTools, recordingInvoke, runWith, testLimits } from "./helpers.js"

/**
 * The CodeRuntime contract: every runtime implementation (in-thread now, a worker pool later) runs this
 * same suite against real QuickJS. `clock`: the clock the runtime reads deadlines from (a test may freeze it).
 */
export const describeCodeRuntimeContract = (
  label: string,
  makeRuntime: () => Promise<CodeRuntime>,
  clock: () => number = Date.now,
) => {
  describe(`CodeRuntime contract: ${label}`, () => {
    let runtime: CodeRuntime
    beforeAll(async () => {
      runtime = await makeRuntime()
    })
    const run = (code: string, options?: Parameters<typeof runWith>[2]) => runWith(runtime, code, options)

    describeDeterminismContract(() => runtime)

    describe("return values", () => {
      test.each([
        ["a number", "return 1 + 1", 2],
        ["a string", "return 'hello'", "hello"],
        ["an object", "return { a: 1, b: 'two' }", { a: 1, b: "two" }],
        [
          "nested values",
          "return { list: [1, { deep: [true, null] }], n: { m: 'x' } }",
          { list: [1, { deep: [true, null] }], n: { m: "x" } },
        ],
        ["null", "return null", null],
        ["an awaited value", "const x = await Promise.resolve(41); return x + 1", 42],
        ["a non-ASCII string", "return 'é✓🙂'", "é✓🙂"],
      ])("%s", async (_name, code, expected) => {
        expect(expectValue(await run(code))).toEqual(expected)
      })

      test("undefined, from `return undefined`, a bare return or no return", async () => {
        for (const code of ["return undefined", "return", "const a = 1", ""]) {
          const outcome = await run(code)
          expect(outcome).toEqual({ ok: true, value: undefined, logs: [] })
        }
      })
    })

    describe("a script that ends in a bare expression returns its value", () => {
      test.each([
        ["after a declaration", "const a = 1; a + 1", 2],
        ["an awaited expression", "const a = await Promise.resolve(20)\na * 2", 40],
        [
          "an expression over several lines",
          "const list = [1, 2, 3]\nlist\n  .map((n) => n * 2)\n  .filter((n) => n > 2)",
          [4, 6],
        ],
        ["an object in parentheses", "({ a: 1 })", { a: 1 }],
        ["with a trailing comment and semicolon", "const s = 'x'\ns + 'y'; // done", "xy"],
        ["a typed expression", "const n = 2 as number;\n(n satisfies number) + 1", 3],
        ["after an early return that did not run", "if (false) return 'early'\n'late'", "late"],
        ["a call whose promise is awaited", "async function main() { return 'from main' }\nmain()", "from main"],
      ])("%s", async (_name, code, expected) => {
        expect(expectValue(await run(code))).toEqual(expected)
      })

      test("an early return still wins; a final declaration or loop returns undefined", async () => {
        expect(expectValue(await run("if (true) return 'early'\n'late'"))).toBe("early")
        expect(expectValue(await run("let x = 1\nfor (let i = 0; i < 3; i++) x += i"))).toBeUndefined()
        expect(expectValue(await run("console.log('side effect')"))).toBeUndefined()
      })

      test("an error in the final expression points at the user's own column", async () => {
        expect(expectError(await run("const o: any = null\n  o.x"))).toMatchObject({
          code: "runtime_error",
          line: 2,
          column: 4,
        })
        expect(expectError(await run("null.x + 1"))).toMatchObject({ code: "runtime_error", line: 1, column: 5 })
      })
    })

    test("TypeScript syntax is stripped: annotations, interfaces, generics, as, satisfies, non-null", async () => {
      const code = [
        "interface Point { x: number; y: number }",
        "type Pair<T> = [T, T]",
        "function swap<T>(pair: Pair<T>): Pair<T> { return [pair[1], pair[0]] }",
        "const p: Point = { x: 1, y: 2 } satisfies Point",
        "const q = (p as unknown as Point)!",
        "enum Color { Red, Green }",
        "return { sum: q.x + q.y, swapped: swap<number>([1, 2]), green: Color.Green }",
      ].join("\n")
      expect(expectValue(await run(code))).toEqual({ sum: 3, swapped: [2, 1], green: 1 })
    })

    describe("errors name the user's own line and column", () => {
      test("a syntax error caught while stripping types", async () => {
        const error = expectError(await run("const a = 1\nlet b = ;\nreturn a"))
        expect(error).toMatchObject({ code: "syntax_error", line: 2, column: 9 })
        expect(error.message).toMatch(/SyntaxError/)
      })

      test("a syntax error only QuickJS catches", async () => {
        const error = expectError(await run("const a = 1\nlet x = 1; let x = 2"))
        // QuickJS points at the `=` after the second `x`
        expect(error).toMatchObject({ code: "syntax_error", line: 2, column: 18 })
      })

      test("a syntax error on the first line is not shifted by the wrapper", async () => {
        expect(expectError(await run("let x = 1; let x = 2"))).toMatchObject({
          code: "syntax_error",
          line: 1,
          column: 18,
        })
      })

      test("an unclosed block points at the end of the script", async () => {
        expect(expectError(await run("if (true) {\n  return 1\n"))).toMatchObject({ code: "syntax_error", line: 3 })
      })

      test("module syntax is a syntax error: the script is a function body", async () => {
        expect(expectError(await run("export const a = 1"))).toMatchObject({ code: "syntax_error", line: 1 })
      })

      test("a runtime error", async () => {
        const error = expectError(await run("const a = 1\nconst b = null as any\n  return b.c"))
        expect(error).toMatchObject({ code: "runtime_error", line: 3, column: 11 })
        expect(error.message).toBe("TypeError: cannot read property 'c' of null")
      })

      test("a runtime error on line 1", async () => {
        expect(expectError(await run("null.x"))).toMatchObject({ code: "runtime_error", line: 1, column: 5 })
      })

      test("a runtime error after an await", async () => {
        const error = expectError(await run("await null\nthrow new RangeError('late')"))
        expect(error).toMatchObject({ code: "runtime_error", message: "RangeError: late", line: 2 })
      })

      test("columns on a line with type syntax are mapped back to what the user wrote", async () => {
        const error = expectError(await run("const v: { x: number } | null = null as any; v.x"))
        // `v.x` starts at column 46 in the original; QuickJS points at the dot
        expect(error).toMatchObject({ code: "runtime_error", line: 1, column: 47 })
      })
    })

    test.each([
      ["a string", "throw 'x'", 'Uncaught "x"'],
      ["an object", "throw { a: 1 }", 'Uncaught {"a":1}'],
      ["a number", "throw 42", "Uncaught 42"],
      ["an object with a throwing getter", "throw { get message() { throw 1 } }", "Uncaught a value of type object"],
    ])("throwing %s gives a readable runtime_error", async (_name, code, message) => {
      expect(expectError(await run(code))).toMatchObject({ code: "runtime_error", message })
    })

    describe("what the script threw is bounded before it leaves the sandbox", () => {
      // errorTextUnits in src/guest-calls.ts; the note that says it was cut adds under 100 characters
      const bound = 16_384 + 100
      const big = 4 << 20
      test.each([
        ["an Error's message", `throw new Error('E'.repeat(${big}))`, "Error: EEEE", big],
        [
          "an awaited rejection's message",
          `await null\nawait Promise.reject(new TypeError('R'.repeat(${big})))`,
          "TypeError: RRRR",
          big,
        ],
        ["a thrown string", `throw 'S'.repeat(${big})`, 'Uncaught "SSSS', big],
        ["a thrown object, as JSON", `throw { big: 'O'.repeat(${big}) }`, 'Uncaught {"big":"OOOO', big + 10],
        ["an Error's name", `const e = new Error('m')\ne.name = 'N'.repeat(${big})\nthrow e`, "NNNN", big],
        ["a thrown Symbol's description", `throw Symbol('D'.repeat(${big}))`, "Uncaught Symbol(DDDD", big + 8],
      ])("%s", async (_name, code, start, length) => {
        const error = expectError(await run(code))
        expect(error.code).toBe("runtime_error")
        expect(error.message.startsWith(start)).toBe(true)
        expect(error.message.length).toBeLessThanOrEqual(bound)
        expect(error.message).toMatch(new RegExp(`cut at 16384 of its ${length} characters`))
      })

      test("a thrown BigInt of 60,206 digits", async () => {
        const error = expectError(await run("throw 2n ** 200000n"))
        expect(error).toMatchObject({ code: "runtime_error" })
        expect(error.message.startsWith("Uncaught 99800")).toBe(true)
        expect(error.message.length).toBeLessThanOrEqual(bound)
        expect(error.message).toMatch(/cut at 16384 of its 60206 characters/)
      })

      test("a cut never splits a surrogate pair", async () => {
        const error = expectError(await run("throw 'a' + '🙂'.repeat(20000)"))
        expect(error.message).toMatch(/^Uncaught "a(🙂)+ … \[switchboard: cut at 16384 of its 40001 characters\]$/u)
      })

      test("a long message keeps its position; one under the bound is whole", async () => {
        expect(expectError(await run(`const n = 1\nthrow new Error('E'.repeat(${big}))`))).toMatchObject({
          code: "runtime_error",
          line: 2,
        })
        const whole = expectError(await run("throw new Error('w'.repeat(16000))"))
        expect(whole.message).toBe(`Error: ${"w".repeat(16000)}`)
      })

      test("a huge reason for arguments without a JSON copy is bounded too", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => null })
        const code = `const r = await tools.a.b({ toJSON() { throw new Error('J'.repeat(${big})) } })\nreturn r.error`
        const error = expectValue(await run(code, { invoke })) as { code: string; message: string }
        expect(error.code).toBe("invalid_arguments")
        expect(error.message.length).toBeLessThanOrEqual(bound + 100)
        expect(calls).toEqual([])
      })
    })

    describe("console", () => {
      test("every level is captured, formatted roughly like Node", async () => {
        const outcome = await run(
          [
            "console.log('text', 1, { a: [1, 'b'] }, null, undefined, 2n)",
            "console.info([1, 2])",
            "console.warn(() => 1)",
            "console.error(new TypeError('bad'))",
            "console.debug(Symbol('s'), true)",
            "const cycle: any = {}; cycle.self = cycle; console.log(cycle)",
          ].join("\n"),
        )
        expect(outcome.ok).toBe(true)
        expect(outcome.logs.map((entry) => entry.level)).toEqual(["log", "info", "warn", "error", "debug", "log"])
        expect(outcome.logs[0]?.message).toBe('text 1 {"a":[1,"b"]} null undefined 2n')
        expect(outcome.logs[1]?.message).toBe("[1,2]")
        expect(outcome.logs[2]?.message).toBe("[Function (anonymous)]")
        expect(outcome.logs[3]?.message).toMatch(/^TypeError: bad\n\s+at /)
        expect(outcome.logs[4]?.message).toBe("Symbol(s) true")
        expect(outcome.logs[5]?.message).toBe("[object Object]")
      })

      test("console formats with the JSON.stringify captured before the script ran", async () => {
        // the formatter is compiled on the first console call, after this script replaced JSON.stringify
        const outcome = await run(
          "JSON.stringify = () => 'garbage'\nconsole.log({ a: [1] }, 'x')\nconsole.info(new Error('e').name)",
        )
        expect(outcome.logs).toEqual([
          { level: "log", message: '{"a":[1]} x' },
          { level: "info", message: "Error" },
        ])
      })

      test("logs are kept when the script fails", async () => {
        const outcome = await run("console.log('before'); throw new Error('after')")
        expect(outcome.ok).toBe(false)
        expect(outcome.logs).toEqual([{ level: "log", message: "before" }])
      })

      test("past the line cap, one final marker says how much was dropped", async () => {
        const outcome = await run("for (let i = 0; i < 10; i++) console.log('line ' + i)", {
          limits: { maxLogLines: 3 },
        })
        expect(outcome.logs.slice(0, 3).map((entry) => entry.message)).toEqual(["line 0", "line 1", "line 2"])
        expect(outcome.logs).toHaveLength(4)
        expect(outcome.logs[3]?.message).toMatch(/7 more log lines \(42 bytes\) dropped.*3 lines/)
      })

      test("past the byte cap, later lines are dropped too", async () => {
        const outcome = await run("console.log('a'.repeat(60)); console.log('b'.repeat(60)); console.log('c')", {
          limits: { maxLogBytes: 100 },
        })
        expect(outcome.logs).toHaveLength(2)
        expect(outcome.logs[1]?.message).toMatch(/2 more log lines \(61 bytes\) dropped.*100 bytes/)
      })
    })

    describe("tools", () => {
      test("dotted and bracket names reach invoke with the full path; the result arrives parsed", async () => {
        const { invoke, calls } = recordingInvoke({
          "math.add": (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b,
          "math.get-sum": () => ({ total: 7, items: [1, "two"] }),
        })
        const outcome = await run(
          "const a = await tools.math.add({ a: 2, b: 3 })\nconst b = await tools.math['get-sum']()\nreturn { a, b, okType: typeof a.ok }",
          { invoke },
        )
        expect(expectValue(outcome)).toEqual({
          a: { ok: true, data: 5 },
          b: { ok: true, data: { total: 7, items: [1, "two"] } },
          okType: "boolean",
        })
        expect(calls).toEqual([
          { path: "math.add", args: { a: 2, b: 3 } },
          { path: "math.get-sum", args: {} },
        ])
      })

      test("arguments are copied: changing them after the call changes nothing the host saw", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => null })
        await run("const args = { list: [1] }\nconst pending = tools.a.b(args)\nargs.list.push(2)\nawait pending", {
          invoke,
        })
        expect(calls).toEqual([{ path: "a.b", args: { list: [1] } }])
      })

      test("a failed tool call resolves to the error union; it does not throw", async () => {
        const outcome = await run("const r = await tools.nope.missing({}); return r.ok ? 'no' : r.error.code")
        expect(expectValue(outcome)).toBe("tool_not_found")
      })

      test.each([
        ["a BigInt", "const args = { n: 1n }", /BigInt/],
        ["a cycle", "const args: any = {}; args.self = args", /circular/],
        ["a function", "const args = () => 1", /got function/],
      ])(
        "an argument with %s resolves to invalid_arguments without calling the host",
        async (_name, setup, pattern) => {
          const { invoke, calls } = recordingInvoke({ "a.b": () => null })
          const result = expectValue(await run(`${setup}\nreturn await tools.a.b(args)`, { invoke })) as ToolResult
          expect(result.ok).toBe(false)
          if (!result.ok) {
            expect(result.error.code).toBe("invalid_arguments")
            expect(result.error.message).toMatch(pattern)
          }
          expect(calls).toEqual([])
        },
      )

      test("tools, a namespace and a tool function are not thenable: awaiting them calls nothing", async () => {
        const { invoke, calls } = recordingInvoke({})
        const outcome = await run(
          "const ns = await tools.ns\nconst fn = await tools.ns.tool\nawait tools\n" +
            "return [typeof ns, typeof fn, typeof tools.ns.then, typeof tools.then, typeof tools.ns.tool.then]",
          { invoke },
        )
        expect(expectValue(outcome)).toEqual(["object", "function", "undefined", "undefined", "undefined"])
        expect(calls).toEqual([])
      })

      test("tool calls run concurrently with Promise.all", async () => {
        const { invoke, calls } = recordingInvoke({ "a.echo": (args) => args })
        const outcome = await run(
          "const rs = await Promise.all([1, 2, 3].map((n) => tools.a.echo({ n })))\nreturn rs.map((r) => r.data.n)",
          {
            invoke,
          },
        )
        expect(expectValue(outcome)).toEqual([1, 2, 3])
        expect(calls).toHaveLength(3)
      })

      test("calls made just before the script returns, never awaited, still reach the host", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "called" })
        expect(expectValue(await run("tools.a.b({ n: 1 }); tools.a.b({ n: 2 }); return 1", { invoke }))).toBe(1)
        // reached it before the outcome did
        expect(calls.map((call) => call.args)).toEqual([{ n: 1 }, { n: 2 }])
      })

      test("answers that come back in bursts and out of order each reach their own call", async () => {
        // the host answers 40 calls in four bursts, the last call first: each must get its own answer
        const gates = [0, 1, 2, 3].map(() => {
          let resolve = () => {}
          const promise = new Promise<void>((done) => {
            resolve = done
          })
          return { promise, resolve }
        })
        const invoke: InvokeTool = async (_path, args) => {
          const n = (args as { n: number }).n
          await gates[3 - Math.floor(n / 10)]!.promise
          return { ok: true, data: { n, square: n * n } }
        }
        const code =
          "const rs = await Promise.all(Array.from({ length: 40 }, (_, n) => tools.a.sq({ n })))\n" +
          "const after = await tools.a.sq({ n: 5 })\n" +
          "return [rs.every((r, n) => r.data.n === n && r.data.square === n * n), after.data.square]"
        const outcome = run(code, { invoke, limits: { maxToolCalls: 41 } })
        for (const gate of gates) {
          gate.resolve()
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        expect(expectValue(await outcome)).toEqual([true, 25])
      })

      test("an invoke that rejects gives the script an internal_error result, not a rejection", async () => {
        const invoke: InvokeTool = async () => {
          throw new Error("secret-token-123 leaked in a host error")
        }
        const result = expectValue(await run("return await tools.a.b({})", { invoke })) as ToolResult
        expect(result).toEqual({
          ok: false,
          error: { code: "internal_error", message: "the tool call failed in the host" },
        })
      })
    })

    describe("tool-call arguments are bounded before they leave the sandbox", () => {
      // the bytes counted are the path's and the arguments' JSON text, in UTF-8: "a.b" and {"s":"..."} are 11 + n
      test("arguments past maxToolArgBytes resolve to tool_arguments_too_large, naming the limit; no tool is called", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "called" })
        const code =
          "const under = await tools.a.b({ s: 'x'.repeat(989) })\nconst over = await tools.a.b({ s: 'x'.repeat(990) })\nreturn [under, over]"
        const [under, over] = expectValue(
          await run(code, { invoke, limits: { maxToolArgBytes: 1000 } }),
        ) as ToolResult[]
        expect(under).toEqual({ ok: true, data: "called" })
        expect(over).toMatchObject({ ok: false, error: { code: "tool_arguments_too_large" } })
        if (!over!.ok) expect(over!.error.message).toMatch(/1001 bytes.*maxToolArgBytes.*1000 bytes/)
        expect(calls).toHaveLength(1)
      })

      test("bytes are UTF-8: 600 two-byte characters are over a limit of 1,000", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "called" })
        const result = expectValue(
          await run("return await tools.a.b({ s: 'é'.repeat(600) })", { invoke, limits: { maxToolArgBytes: 1000 } }),
        ) as ToolResult
        expect(result).toMatchObject({
          ok: false,
          error: { code: "tool_arguments_too_large", message: expect.stringMatching(/1211 bytes/) },
        })
        expect(calls).toEqual([])
      })

      test("megabytes of arguments in a tight loop: every call refused, none reaches the host, the script goes on", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "called" })
        const code =
          "const big = 'x'.repeat(2 << 20)\nconst rs = await Promise.all(Array.from({ length: 10 }, () => tools.a.b({ big })))\n" +
          "return [...new Set(rs.map((r) => r.ok ? 'ok' : r.error.code))]"
        expect(expectValue(await run(code, { invoke, limits: { maxToolArgBytes: 1 << 20, maxToolCalls: 5 } }))).toEqual(
          ["tool_arguments_too_large"],
        )
        expect(calls).toEqual([])
      })

      test("calls in flight share maxToolArgBytesInFlight: past it a call is refused, and a settled call gives its bytes back", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "called" })
        // each call is 311 bytes: three fit in 1,000, a fourth does not until the first three settle
        const code = [
          "const call = () => tools.a.b({ s: 'x'.repeat(300) })",
          "const together = await Promise.all([call(), call(), call(), call()])",
          "const after = await Promise.all([call(), call(), call()])",
          "return { together: together.map((r) => r.ok ? 'ok' : r.error.code), after: after.map((r) => r.ok), " +
            "message: together[3].ok ? '' : together[3].error.message }",
        ].join("\n")
        const value = expectValue(await run(code, { invoke, limits: { maxToolArgBytesInFlight: 1000 } })) as {
          together: string[]
          after: boolean[]
          message: string
        }
        expect(value.together).toEqual(["ok", "ok", "ok", "tool_arguments_too_large"])
        expect(value.after).toEqual([true, true, true])
        expect(value.message).toMatch(/maxToolArgBytesInFlight.*1000 bytes/)
        expect(calls).toHaveLength(6)
      })
    })

    describe("emit(block): content blocks beside the result", () => {
      const png = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }
      const wav = { type: "audio", data: "UklGRg==", mimeType: "audio/wav" }

      test.each([
        ["an image block", `emit(${JSON.stringify(png)})\nreturn 'done'`, "done", [png]],
        [
          "several blocks, in order, with text and audio",
          `emit({ type: 'text', text: 'caption' })\nemit(${JSON.stringify(wav)})\nemit(${JSON.stringify(png)})\nreturn 3`,
          3,
          [{ type: "text", text: "caption" }, wav, png],
        ],
        [
          "after an awaited tool call, with no return value",
          `await tools.a.b({})\nemit(${JSON.stringify(png)})`,
          undefined,
          [png],
        ],
        [
          "a JSON copy: later changes to the object are not seen",
          "const b = { type: 'text', text: 'one' }\nemit(b)\nb.text = 'two'\nreturn b.text",
          "two",
          [{ type: "text", text: "one" }],
        ],
        [
          "a block made by toJSON",
          "emit({ toJSON: () => ({ type: 'text', text: 'from toJSON' }) })",
          undefined,
          [{ type: "text", text: "from toJSON" }],
        ],
        [
          "a block whose odd fields are dropped like JSON drops them",
          "emit({ type: 'text', text: 't', f: () => 1, u: undefined })",
          undefined,
          [{ type: "text", text: "t" }],
        ],
      ])("%s", async (_name, code, value, emitted) => {
        const outcome = await run(code)
        expect(outcome).toEqual({ ok: true, value, logs: [], emitted })
      })

      test("a run that emits nothing has no emitted field", async () => {
        expect(await run("return 1")).toEqual({ ok: true, value: 1, logs: [] })
      })

      test.each([
        ["a string", "emit('x')", /takes an MCP content block.*got a string/],
        ["null", "emit(null)", /got null/],
        ["undefined", "emit()", /got undefined/],
        ["a function", "emit(() => 1)", /got function/],
        ["an array", "emit([{ type: 'text', text: 'x' }])", /got an array/],
        ["an object without a type", "emit({ data: 'x' })", /got an object without a string "type"/],
        ["a number type", "emit({ type: 1 })", /got an object without a string "type"/],
        ["a cycle", "const b: any = { type: 'text' }; b.self = b; emit(b)", /not JSON-serializable: .*circular/],
        ["a BigInt", "emit({ type: 'text', n: 1n })", /not JSON-serializable: .*BigInt/],
      ])("emitting %s throws a TypeError in the script", async (_name, code, pattern) => {
        const error = expectError(await run(code))
        expect(error).toMatchObject({ code: "runtime_error", line: 1 })
        expect(error.message).toMatch(/^TypeError: emit\(block\) takes an MCP content block/)
        expect(error.message).toMatch(pattern)
      })

      test("the TypeError can be caught; nothing was recorded for the bad block", async () => {
        const outcome = await run(
          "try { emit('x') } catch (error) { console.log(error instanceof TypeError) }\nemit({ type: 'text', text: 'ok' })\nreturn 1",
        )
        expect(outcome).toEqual({
          ok: true,
          value: 1,
          logs: [{ level: "log", message: "true" }],
          emitted: [{ type: "text", text: "ok" }],
        })
      })

      test("emitted blocks share maxResultBytes: past it the run fails with result_too_large, naming the limit", async () => {
        const block = (n: number) => `emit({ type: 'text', text: 'x'.repeat(${n}) })`
        // {"type":"text","text":""} is 25 bytes of JSON
        expect(await run(`${block(45)}\n${block(45)}\nreturn 1`, { limits: { maxResultBytes: 140 } })).toMatchObject({
          ok: true,
          value: 1,
        })
        const over = expectError(await run(`${block(45)}\n${block(46)}\nreturn 1`, { limits: { maxResultBytes: 140 } }))
        expect(over.code).toBe("result_too_large")
        expect(over.message).toContain("141 bytes")
        expect(over.message).toContain("limit of 140 bytes")
        // one block far past the limit is refused before it is copied out, and stops a script that keeps going
        const huge = expectError(
          await run("emit({ type: 'text', text: 'x'.repeat(1e6) })\nwhile (true) {}", {
            limits: { maxResultBytes: 1000 },
          }),
        )
        expect(huge.code).toBe("result_too_large")
        expect(huge.message).toMatch(/at least \d+ bytes.*limit of 1000 bytes/)
      })

      test("a failed run carries no emitted blocks", async () => {
        const outcome = await run(`emit(${JSON.stringify(png)})\nthrow new Error('after')`)
        expect(outcome.ok).toBe(false)
        expect("emitted" in outcome).toBe(false)
      })
    })

    describe("limits", () => {
      test("past maxToolCalls the whole run fails with tool_call_limit, naming the limit", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => 1 })
        const atLimit = await run("for (let i = 0; i < 3; i++) await tools.a.b({})\nreturn 'done'", {
          invoke,
          limits: { maxToolCalls: 3 },
        })
        expect(expectValue(atLimit)).toBe("done")
        const over = expectError(
          await run("for (let i = 0; i < 5; i++) await tools.a.b({})\nreturn 'done'", {
            invoke,
            limits: { maxToolCalls: 3 },
          }),
        )
        expect(over.code).toBe("tool_call_limit")
        expect(over.message).toContain("3")
        expect(calls).toHaveLength(6)
      })

      test("past maxToolCalls a script that never awaits is stopped too", async () => {
        const { invoke } = recordingInvoke({ "a.b": () => 1 })
        const error = expectError(await run("for (;;) tools.a.b({})", { invoke, limits: { maxToolCalls: 5 } }))
        expect(error.code).toBe("tool_call_limit")
      })

      test("a promise nothing can settle fails at once with never_settled", async () => {
        const started = Date.now()
        const error = expectError(await run("await new Promise(() => {})"))
        expect(error.code).toBe("never_settled")
        expect(Date.now() - started).toBeLessThan(testLimits.timeoutMs / 2)
      })

      test("a CPU loop is stopped at the deadline with timeout, naming the limit", async () => {
        const started = Date.now()
        const error = expectError(await run("while (true) {}", { limits: { timeoutMs: 100 } }))
        expect(error.code).toBe("timeout")
        expect(error.message).toContain("100 ms")
        expect(Date.now() - started).toBeLessThan(1_500)
      })

      test("a loop that catches the interrupt is still stopped", async () => {
        const error = expectError(
          await run("for (;;) { try { while (true) {} } catch {} }", { limits: { timeoutMs: 100 } }),
        )
        expect(error.code).toBe("timeout")
      })

      test("an endless chain of promise jobs is stopped with timeout, wherever the deadline lands", async () => {
        // each job works before it chains the next: the deadline falls inside a job's handler, where the engine
        // makes the interrupt the rejection of that job's promise and the chain stops with nothing left to run.
        // With the clock frozen only the interrupt budget ends a run, and a chain whose handlers barely run code
        // reaches the memory limit first, which the engine turns into a rejection nobody sees: that one still
        // answers never_settled (quickjs-emscripten has no rejection tracker to tell).
        for (const work of clock === Date.now ? [0, 1_000, 100_000] : [100_000]) {
          const code = `const f = (): any => { for (let i = 0; i < ${work}; i++); return Promise.resolve().then(f) }\nf()\nawait new Promise(() => {})`
          const error = expectError(await run(code, { limits: { timeoutMs: 100 } }))
          expect({ work, code: error.code }).toEqual({ work, code: "timeout" })
        }
      })

      test("the wall clock covers awaited tool calls: a tool that never answers times out", async () => {
        const invoke: InvokeTool = () => new Promise<ToolResult>(() => {})
        const started = Date.now()
        const error = expectError(
          await run("await tools.slow.tool({})\nreturn 'never'", { invoke, limits: { timeoutMs: 150 } }),
        )
        expect(error.code).toBe("timeout")
        expect(Date.now() - started).toBeGreaterThanOrEqual(140)
        expect(Date.now() - started).toBeLessThan(1_500)
      })

      test("a run ends at the deadline its caller set, and its timeout names the caller's limit", async () => {
        // the tool answers long before the limit: only the deadline, which comes first, stops the run
        const invoke: InvokeTool = () =>
          new Promise((resolve) => setTimeout(() => resolve({ ok: true, data: 1 }), 2_000))
        const code = "await tools.slow.tool({})\nreturn 'answered'"
        const error = expectError(await run(code, { invoke, limits: { timeoutMs: 20_000 }, deadline: clock() + 100 }))
        expect(error).toMatchObject({ code: "timeout", message: expect.stringContaining("20000 ms") })
      })

      test("allocating past the memory limit fails with memory_limit", async () => {
        const error = expectError(
          await run("const a = []\nfor (;;) a.push({ x: a.length, y: [1, 2] })", {
            limits: { memoryBytes: 16 << 20, timeoutMs: 10_000 },
          }),
        )
        expect(error.code).toBe("memory_limit")
        expect(error.message).toContain(String(16 << 20))
      })

      test("deep recursion fails with stack_overflow", async () => {
        const error = expectError(await run("function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)"))
        expect(error.code).toBe("stack_overflow")
        expect(error.message).toContain(String(testLimits.stackBytes))
        expect(error.line).toBe(1)
      })

      test.each([
        ["a cycle", "const a: any = {}; a.self = a; return a", /circular/],
        ["a BigInt", "return { n: 10n }", /BigInt/],
        ["a function", "return () => 1", /function/],
        ["a throwing toJSON", "return { toJSON() { throw new Error('nope') } }", /nope/],
      ])("a result with %s fails with result_not_serializable", async (_name, code, pattern) => {
        const error = expectError(await run(code))
        expect(error.code).toBe("result_not_serializable")
        expect(error.message).toMatch(pattern)
      })

      test("a result larger than maxResultBytes fails with result_too_large, naming the limit", async () => {
        const ascii = expectError(await run("return 'x'.repeat(200)", { limits: { maxResultBytes: 100 } }))
        expect(ascii.code).toBe("result_too_large")
        expect(ascii.message).toContain("100 bytes")
        // 60 two-byte characters: under the limit in UTF-16 units, over it in UTF-8 bytes
        const wide = expectError(await run("return 'é'.repeat(60)", { limits: { maxResultBytes: 100 } }))
        expect(wide).toMatchObject({ code: "result_too_large" })
        expect(wide.message).toContain("122 bytes")
        expect(expectValue(await run("return 'x'.repeat(98)", { limits: { maxResultBytes: 100 } }))).toHaveLength(98)
      })

      test("a result of more keys and elements than maxResultNodes fails with result_too_large, naming the limit", async () => {
        const limits = { maxResultNodes: 100 }
        const wide = expectError(
          await run("return Object.fromEntries(Array.from({ length: 150 }, (_, i) => ['k' + i, i]))", { limits }),
        )
        expect(wide.code).toBe("result_too_large")
        expect(wide.message).toMatch(/has 15\d keys and elements, over maxResultNodes, the limit of 100/)
        const deep = expectError(await run("return Array.from({ length: 30 }, () => [1, 2, 3, 4])", { limits }))
        expect(deep.code).toBe("result_too_large")
        // a long string is one value, whatever it holds
        expect(expectValue(await run("return { text: ',{['.repeat(1000) }", { limits }))).toMatchObject({
          text: expect.any(String),
        })
        expect(expectValue(await run("return Array.from({ length: 90 }, (_, i) => i)", { limits }))).toHaveLength(90)
      })

      test("an aborted signal ends the run with aborted", async () => {
        const controller = new AbortController()
        const invoke: InvokeTool = () => {
          setTimeout(() => controller.abort(), 10)
          return new Promise<ToolResult>(() => {})
        }
        const error = expectError(await run("await tools.a.b({})", { invoke, signal: controller.signal }))
        expect(error.code).toBe("aborted")
      })

      // a pause for a person's approval stops the run this way: the record keeps what the script logged before it
      test("an aborted run keeps what it logged before the abort", async () => {
        const controller = new AbortController()
        const invoke: InvokeTool = () => {
          setTimeout(() => controller.abort(), 10)
          return new Promise<ToolResult>(() => {})
        }
        const outcome = await run('console.log("before the call"); await tools.a.b({})', {
          invoke,
          signal: controller.signal,
        })
        expect(expectError(outcome).code).toBe("aborted")
        expect(outcome.logs).toEqual([{ level: "log", message: "before the call" }])
      })
    })

    describe("the sandbox has nothing but ECMAScript, tools and console", () => {
      test("no fetch, require, process, timers, module loading", async () => {
        const outcome = await run(
          "return [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof setInterval, " +
            "typeof setImmediate, typeof queueMicrotask, typeof module, typeof std, typeof os]",
        )
        expect(expectValue(outcome)).toEqual(Array(10).fill("undefined"))
        expect(expectError(await run("return await import('os')")).code).toBe("runtime_error")
      })

      // a growable SharedArrayBuffer read memory past its allocation (issue 13; sandbox.ts)
      test("no SharedArrayBuffer and no Atomics", async () => {
        const outcome = await run(
          "return [typeof SharedArrayBuffer, typeof Atomics, 'SharedArrayBuffer' in globalThis, 'Atomics' in globalThis]",
        )
        expect(expectValue(outcome)).toEqual(["undefined", "undefined", false, false])
        expect(expectError(await run("new SharedArrayBuffer(1, { maxByteLength: 1 << 20 }).grow(1 << 20)")).code).toBe(
          "runtime_error",
        )
      })

      test("the host functions are not reachable from the script", async () => {
        const outcome = await run(
          "return [typeof __switchboard_invoke, typeof __switchboard_log, Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__'))]",
        )
        expect(expectValue(outcome)).toEqual(["undefined", "undefined", []])
      })

      test("a script that replaces JSON cannot corrupt its result or tool calls", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "fine" })
        const outcome = await run(
          "JSON.stringify = () => 'garbage'; JSON.parse = () => 'garbage'\nconst r = await tools.a.b({ x: 1 })\nreturn r",
          {
            invoke,
          },
        )
        expect(expectValue(outcome)).toEqual({ ok: true, data: "fine" })
        expect(calls).toEqual([{ path: "a.b", args: { x: 1 } }])
      })

      // tools, console and emit are made on their first read (sandbox-globals.ts); a script must not be able to tell
      test("tools, console and emit read as plain data properties, the same object every time", async () => {
        const outcome = await run(
          [
            "const getter = Object.getOwnPropertyDescriptor(globalThis, 'tools').get",
            "const first = tools",
            "const d = Object.getOwnPropertyDescriptor(globalThis, 'tools')",
            "const c = Object.getOwnPropertyDescriptor(globalThis, 'console')",
            "void console, emit",
            "const after = ['console', 'emit'].map((n) => Object.getOwnPropertyDescriptor(globalThis, n))",
            "return [first === tools, getter() === tools, d.writable, d.enumerable, d.configurable, 'value' in d, typeof c.get,",
            "  after.every((x) => x.writable && x.enumerable && x.configurable && 'value' in x), typeof console.log, typeof emit]",
          ].join("\n"),
        )
        expect(expectValue(outcome)).toEqual([
          true,
          true,
          true,
          true,
          true,
          true,
          "function",
          true,
          "function",
          "function",
        ])
      })

      test("a script may assign or delete tools, console and emit before reading them", async () => {
        const outcome = await run(
          "tools = 5; console = { log: () => 'mine' }; delete globalThis.emit\nreturn [tools, console.log(), typeof emit]",
        )
        expect(expectValue(outcome)).toEqual([5, "mine", "undefined"])
      })

      test("replacing Object.defineProperty or JSON before the first read does not break tools", async () => {
        const { invoke, calls } = recordingInvoke({ "a.b": () => "fine" })
        const outcome = await run(
          "Object.defineProperty = () => { throw new Error('no') }; JSON.parse = () => 'garbage'\nconsole.log('x'); emit({ type: 'text', text: 't' })\n" +
            "return (await tools.a.b({ x: 1 })).data",
          { invoke },
        )
        expect(outcome).toMatchObject({ ok: true, value: "fine", emitted: [{ type: "text", text: "t" }] })
        expect(outcome.logs.map((entry) => entry.message)).toEqual(["x"])
        expect(calls).toEqual([{ path: "a.b", args: { x: 1 } }])
      })

      test("runs do not share globals", async () => {
        await run("globalThis.leak = 'from an earlier run'")
        expect(expectValue(await run("return typeof leak"))).toBe("undefined")
      })
    })

    test("a tool result that arrives after the run ended is dropped", async () => {
      let release: (() => void) | undefined
      const arrived = new Promise<void>((resolve) => (release = resolve))
      const invoke: InvokeTool = async () => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        release?.()
        return { ok: true, data: "late" }
      }
      expect(expectValue(await run("tools.a.b({})\nreturn 'early'", { invoke }))).toBe("early")
      const timedOut = run("await tools.a.b({})", { invoke, limits: { timeoutMs: 10 } })
      expect(expectError(await timedOut).code).toBe("timeout")
      await arrived
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(expectValue(await run("return 'still fine'"))).toBe("still fine")
    })

    test("overlapping runs keep their own tools, logs and results", async () => {
      const slowEcho: InvokeTool = async (path, args) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        return { ok: true, data: { path, args } }
      }
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          run(`console.log('run ${n}')\nconst r = await tools.ns.t${n}({ n: ${n} })\nreturn r.data`, {
            invoke: slowEcho,
          }),
        ),
      )
      outcomes.forEach((outcome, index) => {
        const n = index + 1
        expect(outcome).toEqual({
          ok: true,
          value: { path: `ns.t${n}`, args: { n } },
          logs: [{ level: "log", message: `run ${n}` }],
        })
      })
    })

    test("run never rejects, whatever the script does", async () => {
      const scripts = [
        "throw undefined",
        "throw null",
        "return new Proxy({}, { get() { throw 1 } })",
        "}",
        "\u0000",
        "await tools",
      ]
      for (const code of scripts) {
        const outcome = await run(code, { invoke: noTools })
        expect(typeof outcome.ok).toBe("boolean")
      }
    })
  })
}
