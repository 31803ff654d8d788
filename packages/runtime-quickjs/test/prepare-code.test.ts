import { describe, expect, test } from "vitest"
import { endsInReturnStatement, parsedInsertions } from "../src/completion-value.js"
import { prepareCode } from "../src/prepare-code.js"
import { positionInScript } from "../src/source-position.js"

const prepared = (code: string) => {
  const result = prepareCode(code)
  if (!result.ok) throw new Error(`unexpected syntax error: ${result.error.message}`)
  return result.code
}

describe("prepareCode", () => {
  test("wraps the script on its first line, so every line keeps its number", () => {
    const code = prepared("const a: number = 1\nreturn a")
    expect(code.source.split("\n")).toHaveLength(3)
    expect(code.source.startsWith("(async () => {const a = 1")).toBe(true)
    expect(code.source.endsWith("\n})()")).toBe(true)
  })

  test("a final bare expression becomes a return on the same line; nothing else moves", () => {
    const code = prepared("const a = 1\na + 1 // sum")
    expect(code.source).toBe("(async () => {const a = 1\nreturn (a + 1) // sum\n})()")
    expect(prepared("return 1").source).toBe("(async () => {return 1\n})()")
    expect(prepared("for (;;) {}").insertions).toEqual([])
  })

  test("a script acorn cannot parse is left for QuickJS to report", () => {
    expect(prepared("let x = 1; let x = 2").insertions).toEqual([])
  })

  test("a sucrase syntax error carries the user's line and column", () => {
    const result = prepareCode("const ok = 1\n\n  const bad: = 2")
    expect(result).toEqual({
      ok: false,
      error: { code: "syntax_error", message: "SyntaxError: Unexpected token", line: 3, column: 14 },
    })
  })
})

describe("positionInScript", () => {
  test("takes the first frame of the script, not of the prelude", () => {
    const code = prepared("a\nb\nc\nreturn")
    const stack = "    at tool (prelude.js:1:200)\n    at <anonymous> (script.ts:3:5)\n    at <eval> (script.ts:4:3)\n"
    expect(positionInScript(stack, code)).toEqual({ line: 3, column: 5 })
  })

  test("undoes the wrapper's shift on line 1", () => {
    const code = prepared("null.x; return")
    expect(positionInScript(`    at <eval> (script.ts:1:${code.prefixLength + 5})`, code)).toEqual({
      line: 1,
      column: 5,
    })
  })

  test("undoes the shift of a final expression's `return (`", () => {
    const code = prepared("null.x")
    expect(positionInScript(`    at <eval> (script.ts:1:${code.prefixLength + "return (".length + 5})`, code)).toEqual({
      line: 1,
      column: 5,
    })
  })

  test("the wrapper's closing line becomes the end of the script", () => {
    const code = prepared("a\n  b")
    expect(positionInScript("    at script.ts:3:1", code)).toEqual({ line: 2, column: 4 })
  })

  test("maps a column on a line whose types were stripped back to the original", () => {
    const original = "const a: Record<string, number> = {}; a.b.c; return"
    const code = prepared(original)
    const strippedColumn = code.stripped.indexOf(".c") + 1
    expect(positionInScript(`    at <eval> (script.ts:1:${code.prefixLength + strippedColumn})`, code)).toEqual({
      line: 1,
      column: original.indexOf(".c") + 1,
    })
  })

  test("no frame in the script, no position", () => {
    expect(positionInScript("    at f (prelude.js:1:1)", prepared("1"))).toBeUndefined()
    expect(positionInScript(undefined, prepared("1"))).toBeUndefined()
  })
})

describe("skipping acorn when the script provably ends in a return statement", () => {
  // the oracle: acorn's own answer; skipping is correct when acorn would insert nothing either
  const agrees = (script: string) => !endsInReturnStatement(script) || parsedInsertions(script).length === 0

  test.each([
    "return 1+1",
    "const a = 1\nreturn a",
    "return top.map(([login, count], i) => ({ login, count, name: details[i].ok ? details[i].data.name : null }))",
    "return { a: 1, b: 'x;}' }",
    "return arr.map((x) => { const y = x; return y })",
    "if (x)\n  return 1",
    "x = 1;\n\nreturn 'a;b'  \n\n",
    "const r = await tools.a.b({})\nreturn r.ok ? r.data : r.error",
  ])("skipped: %j", (script) => {
    expect(endsInReturnStatement(script)).toBe(true)
    expect(parsedInsertions(script)).toEqual([])
  })

  test.each([
    ["a property named return after a dot", "x = a.\nreturn"],
    ["after an optional dot, past blank lines", "x = a?.\n\n  return"],
    ["inside a template literal", "x = `\nreturn 1`"],
    ["inside a string continued by a backslash", "x = 'a\\\nreturn 1'"],
    ["inside a block comment", "/*\nreturn 1 */"],
    ["a statement after a block closed on the line", "if (x) {\nreturn 1 } y"],
    ["a statement after a semicolon", "return 1; y"],
    ["a line comment", "return 1 // c"],
    ["a comment on the line before", "x = a. // c\nreturn 1"],
    ["an object key", "x = {\nreturn: 1 }"],
    ["a longer name", "returned = 1"],
    ["a line separator", "return 1\u2028y"],
    ["an HTML-like comment", "return 1 <!-- c"],
    ["a regex", "return /x/.test(s)"],
    ["non-ASCII", "return 'é'"],
    ["an unclosed string", "return 'x"],
  ])("not skipped: %s", (_name, script) => {
    expect(endsInReturnStatement(script)).toBe(false)
  })

  test("never disagrees with acorn on 30,000 random scripts made of awkward pieces", () => {
    const pieces = [
      "return",
      " return ",
      "\n",
      "\nreturn ",
      ".",
      "?.",
      ";",
      "{",
      "}",
      "(",
      ")",
      "[",
      "]",
      "'",
      '"',
      "`",
      "/",
      "//",
      "/*",
      "*/",
      "\\",
      "a",
      "1",
      "+",
      " ",
      "x = ",
      "if (a) ",
      "=>",
      ",",
      ":",
      "\u2028",
      "<!--",
      "-->",
    ]
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    let skipped = 0
    for (let index = 0; index < 30_000; index++) {
      let script = ""
      const length = 1 + Math.floor(random() * 12)
      for (let piece = 0; piece < length; piece++) script += pieces[Math.floor(random() * pieces.length)]
      if (random() < 0.5) script += "\nreturn " + pieces[Math.floor(random() * pieces.length)] + " a"
      if (endsInReturnStatement(script)) skipped++
      if (!agrees(script)) throw new Error(`disagrees with acorn: ${JSON.stringify(script)}`)
    }
    expect(skipped).toBeGreaterThan(1000)
  })
})
