import { describe, expect, it } from "vitest"
import type { ToolResult } from "../result.js"
import { decodeToolResult } from "./decode.js"
import { effectiveEncoding } from "./encoding.js"
import { decodeMcpCallToolResultV2 } from "./mcp-call-tool-result-v2.js"

const text = (t: string) => ({ type: "text", text: t })
const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }
const badImage = { type: "image", data: "%%%not base64%%%", mimeType: "image/png" }
const blob = {
  type: "resource",
  resource: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: "AAEC" },
}
const link = { type: "resource_link", uri: "file:///b.txt", name: "b.txt" }
const widget = { type: "widget", html: "<b>hi</b>" }
const meta = { "io.example/trace": "abc", progressToken: 7 }

type Row = [name: string, raw: unknown, expected: ToolResult]

const rows: Row[] = [
  // ---- not an object at all
  [
    "null result",
    null,
    {
      ok: false,
      error: { code: "invalid_result", message: "MCP tools/call result is not an object (got null)", data: null },
    },
  ],
  [
    "undefined result",
    undefined,
    { ok: false, error: { code: "invalid_result", message: "MCP tools/call result is not an object (got undefined)" } },
  ],
  [
    "string result",
    "hello",
    {
      ok: false,
      error: { code: "invalid_result", message: "MCP tools/call result is not an object (got string)", data: "hello" },
    },
  ],
  [
    "array result",
    [text("a")],
    {
      ok: false,
      error: {
        code: "invalid_result",
        message: "MCP tools/call result is not an object (got an array)",
        data: [text("a")],
      },
    },
  ],

  // ---- rule 1: isError
  [
    "isError with text blocks",
    { isError: true, content: [text("bad input"), image, text("try again")] },
    {
      ok: false,
      error: {
        code: "upstream_error",
        message: "bad input\ntry again",
        content: [text("bad input"), image, text("try again")],
      },
    },
  ],
  [
    "isError without text",
    { isError: true, content: [image] },
    { ok: false, error: { code: "upstream_error", message: "tool reported an error", content: [image] } },
  ],
  [
    "isError with empty content",
    { isError: true, content: [] },
    { ok: false, error: { code: "upstream_error", message: "tool reported an error" } },
  ],
  [
    "isError with missing content",
    { isError: true },
    { ok: false, error: { code: "upstream_error", message: "tool reported an error" } },
  ],
  [
    "isError with only an empty text",
    { isError: true, content: [text("")] },
    { ok: false, error: { code: "upstream_error", message: "tool reported an error", content: [text("")] } },
  ],
  [
    "isError with structuredContent and _meta",
    { isError: true, content: [text('{"code":42}')], structuredContent: { code: 42 }, _meta: meta },
    {
      ok: false,
      error: {
        code: "upstream_error",
        message: '{"code":42}',
        data: { code: 42 },
        content: [text('{"code":42}')],
        meta,
      },
    },
  ],
  [
    "isError with null structuredContent",
    { isError: true, content: [text("x")], structuredContent: null },
    { ok: false, error: { code: "upstream_error", message: "x", data: null, content: [text("x")] } },
  ],
  ["isError false is success", { isError: false, content: [text("fine")] }, { ok: true, data: "fine" }],
  ['isError "true" (not boolean) is success', { isError: "true", content: [text("fine")] }, { ok: true, data: "fine" }],

  // ---- rule 2: structuredContent is data
  [
    "structuredContent with compact duplicate",
    { content: [text('{"a":1,"b":[1,2]}')], structuredContent: { a: 1, b: [1, 2] } },
    { ok: true, data: { a: 1, b: [1, 2] } },
  ],
  [
    "indented duplicate",
    { content: [text('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}')], structuredContent: { a: 1, b: [1, 2] } },
    { ok: true, data: { a: 1, b: [1, 2] } },
  ],
  [
    "spec-style spaced duplicate",
    {
      content: [text('{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}')],
      structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
    },
    { ok: true, data: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 } },
  ],
  [
    "reordered-key duplicate",
    {
      content: [text('{"2":"b","b":{"y":2,"x":1},"1":"a"}')],
      structuredContent: { b: { x: 1, y: 2 }, 1: "a", 2: "b" },
    },
    { ok: true, data: { b: { x: 1, y: 2 }, 1: "a", 2: "b" } },
  ],
  [
    "whitespace-padded duplicate",
    { content: [text(' \n{"a":1}\t ')], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 } },
  ],
  [
    "{result: X} wrap: text is X as JSON",
    { content: [text("[\n  1,\n  2\n]")], structuredContent: { result: [1, 2] } },
    { ok: true, data: { result: [1, 2] } },
  ],
  [
    "{result: X} wrap: scalar X",
    { content: [text("42")], structuredContent: { result: 42 } },
    { ok: true, data: { result: 42 } },
  ],
  [
    "{content: text} wrap: text is the same string",
    { content: [text("just prose, not JSON")], structuredContent: { content: "just prose, not JSON" } },
    { ok: true, data: { content: "just prose, not JSON" } },
  ],
  [
    '{result: "42"} wrap: same string though it parses to a number',
    { content: [text("42")], structuredContent: { result: "42" } },
    { ok: true, data: { result: "42" } },
  ],
  [
    "wrap check applies only to one-key objects",
    { content: [text("1")], structuredContent: { a: 1, b: 2 } },
    { ok: true, data: { a: 1, b: 2 }, content: [text("1")] },
  ],
  [
    "array structuredContent with duplicate text",
    { content: [text('[ {"id": 1}, {"id": 2} ]')], structuredContent: [{ id: 1 }, { id: 2 }] },
    { ok: true, data: [{ id: 1 }, { id: 2 }] },
  ],
  [
    "array order matters for the duplicate check",
    { content: [text("[2,1]")], structuredContent: [1, 2] },
    { ok: true, data: [1, 2], content: [text("[2,1]")] },
  ],
  [
    "scalar structuredContent 42 with text 42",
    { content: [text("42")], structuredContent: 42 },
    { ok: true, data: 42 },
  ],
  [
    "scalar string structuredContent with its JSON text",
    { content: [text('"hi"')], structuredContent: "hi" },
    { ok: true, data: "hi" },
  ],
  [
    "string structuredContent with the same raw (unquoted) text is its duplicate",
    { content: [text("hi")], structuredContent: "hi" },
    { ok: true, data: "hi" },
  ],
  [
    "string structuredContent with a different text keeps the text",
    { content: [text("said hi")], structuredContent: "hi" },
    { ok: true, data: "hi", content: [text("said hi")] },
  ],
  ["null structuredContent is present", { content: [text("null")], structuredContent: null }, { ok: true, data: null }],
  [
    "null structuredContent keeps a non-duplicate text",
    { content: [text("nothing found")], structuredContent: null },
    { ok: true, data: null, content: [text("nothing found")] },
  ],
  ["false structuredContent", { content: [], structuredContent: false }, { ok: true, data: false }],
  [
    "prose summary stays in content (spec list_users)",
    {
      content: [text("Found 2 users: Alice (alice@example.com) and Bob (bob@example.com).")],
      structuredContent: [
        { name: "Alice", email: "alice@example.com" },
        { name: "Bob", email: "bob@example.com" },
      ],
    },
    {
      ok: true,
      data: [
        { name: "Alice", email: "alice@example.com" },
        { name: "Bob", email: "bob@example.com" },
      ],
      content: [text("Found 2 users: Alice (alice@example.com) and Bob (bob@example.com).")],
    },
  ],
  [
    "different JSON text stays in content",
    { content: [text('{"a":2}')], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 }, content: [text('{"a":2}')] },
  ],
  [
    "extra key is not a duplicate",
    { content: [text('{"a":1,"b":null}')], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 }, content: [text('{"a":1,"b":null}')] },
  ],
  [
    "duplicate dropped, summary and image kept in order",
    { content: [text("Summary"), text('{"a":1}'), image], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 }, content: [text("Summary"), image] },
  ],
  [
    "every duplicate text block is dropped",
    { content: [text('{"a":1}'), text('{ "a": 1 }')], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 } },
  ],
  ["structuredContent with missing content", { structuredContent: { a: 1 } }, { ok: true, data: { a: 1 } }],
  [
    "structuredContent with empty content and _meta",
    { content: [], structuredContent: { a: 1 }, _meta: meta },
    { ok: true, data: { a: 1 }, meta },
  ],
  [
    "structuredContent beats a lone exact-JSON text",
    { content: [text('{"other":true}')], structuredContent: { a: 1 } },
    { ok: true, data: { a: 1 }, content: [text('{"other":true}')] },
  ],
  [
    "structuredContent: undefined counts as absent",
    { content: [text('{"a":1}')], structuredContent: undefined },
    { ok: true, data: { a: 1 } },
  ],

  // ---- rule 3: one text block of exact JSON
  [
    "exact JSON object",
    { content: [text('{"issues":[{"id":"LIN-1","n":3}]}')] },
    { ok: true, data: { issues: [{ id: "LIN-1", n: 3 }] } },
  ],
  ["exact JSON array", { content: [text("[1,2,3]")] }, { ok: true, data: [1, 2, 3] }],
  ["whitespace-padded JSON", { content: [text(' \n{"a":1}\t ')] }, { ok: true, data: { a: 1 } }],
  ["exact JSON with _meta", { content: [text('{"a":1}')], _meta: meta }, { ok: true, data: { a: 1 }, meta }],
  [
    "text block with extra fields still parses",
    { content: [{ type: "text", text: "[1]", annotations: { priority: 1 } }] },
    { ok: true, data: [1] },
  ],

  // ---- rule 4: one text block -> the string
  ["prose", { content: [text("Hello, world")] }, { ok: true, data: "Hello, world" }],
  ["empty text", { content: [text("")] }, { ok: true, data: "" }],
  ['scalar "42" stays a string', { content: [text("42")] }, { ok: true, data: "42" }],
  ['scalar "true" stays a string', { content: [text("true")] }, { ok: true, data: "true" }],
  ['scalar "null" stays a string', { content: [text("null")] }, { ok: true, data: "null" }],
  ['scalar "\\"hi\\"" stays a string', { content: [text('"hi"')] }, { ok: true, data: '"hi"' }],
  ['"007" stays a string', { content: [text("007")] }, { ok: true, data: "007" }],
  ["1e400 stays a string", { content: [text("[1e400]")] }, { ok: true, data: "[1e400]" }],
  [
    "9007199254740993 stays a string",
    { content: [text('{"id":9007199254740993}')] },
    { ok: true, data: '{"id":9007199254740993}' },
  ],
  [
    "-9007199254740993 stays a string",
    { content: [text("[-9007199254740993]")] },
    { ok: true, data: "[-9007199254740993]" },
  ],
  ["duplicate keys stay a string", { content: [text('{"a":1,"a":2}')] }, { ok: true, data: '{"a":1,"a":2}' }],
  ["NDJSON stays a string", { content: [text('{"a":1}\n{"a":2}\n')] }, { ok: true, data: '{"a":1}\n{"a":2}\n' }],
  ["BOM-prefixed JSON stays a string", { content: [text('\ufeff{"a":1}')] }, { ok: true, data: '\ufeff{"a":1}' }],
  [
    "trailing prose stays a string",
    { content: [text('{"a":1} (3 more omitted)')] },
    { ok: true, data: '{"a":1} (3 more omitted)' },
  ],
  ["lone surrogates kept in data", { content: [text("a\ud800b\udc00")] }, { ok: true, data: "a\ud800b\udc00" }],
  [
    "lone surrogate inside exact JSON is kept",
    { content: [text('{"s":"\\ud800"}')] },
    { ok: true, data: { s: "\ud800" } },
  ],
  ["prose with _meta", { content: [text("done")], _meta: meta }, { ok: true, data: "done", meta }],

  // ---- rule 5: the ordered block array
  [
    "several text blocks",
    { content: [text('{"a":1}'), text("two")] },
    { ok: true, data: [text('{"a":1}'), text("two")] },
  ],
  ["text plus image", { content: [text("here"), image] }, { ok: true, data: [text("here"), image] }],
  ["a lone image", { content: [image] }, { ok: true, data: [image] }],
  ["a blob resource block", { content: [blob] }, { ok: true, data: [blob] }],
  ["bad base64 is passed through", { content: [badImage, link] }, { ok: true, data: [badImage, link] }],
  ["unknown block type", { content: [widget] }, { ok: true, data: [widget] }],
  [
    "text block without a string text is not a text block",
    { content: [{ type: "text", text: 5 }] },
    { ok: true, data: [{ type: "text", text: 5 }] },
  ],
  ["block missing type", { content: [{ text: "x" }] }, { ok: true, data: [{ text: "x" }] }],
  ["empty content -> null", { content: [] }, { ok: true, data: null }],
  ["missing content -> null", {}, { ok: true, data: null }],
  ["null content -> null", { content: null }, { ok: true, data: null }],
  ["empty content with _meta", { content: [], _meta: meta }, { ok: true, data: null, meta }],
  ["null _meta is carried", { content: [], _meta: null }, { ok: true, data: null, meta: null }],
  ["content not an array: a string is ignored", { content: "hello" }, { ok: true, data: null }],
  ["content not an array: a bare block is one block", { content: text('{"a":1}') }, { ok: true, data: { a: 1 } }],
  [
    "non-object entries are skipped",
    { content: [null, 7, "x", [text("y")], text("kept")] },
    { ok: true, data: "kept" },
  ],
  ["only non-object entries -> null", { content: [null, "x"] }, { ok: true, data: null }],
  [
    "blocks array with _meta",
    { content: [text("a"), text("b")], _meta: meta },
    { ok: true, data: [text("a"), text("b")], meta },
  ],
  [
    "other top-level keys are dropped",
    { content: [text("x")], resultType: "complete", foo: 1 },
    { ok: true, data: "x" },
  ],
]

describe("decodeMcpCallToolResultV2", () => {
  it.each(rows)("%s", (_name, raw, expected) => {
    const actual = decodeMcpCallToolResultV2(raw)
    expect(actual).toEqual(expected)
    expect(actual).toStrictEqual(expected) // also rejects present-but-undefined fields (e.g. `content: undefined`)
    expect(decodeToolResult("mcp-call-tool-result-v2", raw)).toEqual(expected)
  })

  it("passes blocks through by reference", () => {
    const result = decodeMcpCallToolResultV2({ content: [image, widget] })
    expect(result.ok && (result.data as unknown[])[0]).toBe(image)
    expect(result.ok && (result.data as unknown[])[1]).toBe(widget)
  })

  it("keeps __proto__ from exact JSON as an own property, never a prototype", () => {
    const result = decodeMcpCallToolResultV2({
      content: [text('{"__proto__":{"admin":true},"list":[{"__proto__":null}]}')],
    })
    if (!result.ok) throw new Error("expected ok")
    const data = result.data as any
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(data, "__proto__")?.value).toEqual({ admin: true })
    expect(data.admin).toBeUndefined()
    expect(Object.getPrototypeOf(data.list[0])).toBe(Object.prototype)
    expect(Object.hasOwn(data.list[0], "__proto__")).toBe(true)
  })

  it("keeps __proto__ in structuredContent and detects its duplicate", () => {
    const structuredContent = JSON.parse('{"__proto__":{"admin":true}}')
    const result = decodeMcpCallToolResultV2({
      content: [text('{ "__proto__": { "admin": true } }')],
      structuredContent,
    })
    expect(result).toEqual({ ok: true, data: structuredContent })
    if (!result.ok) throw new Error("expected ok")
    expect(result.data).toBe(structuredContent)
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype)
    expect(Object.hasOwn(result.data as object, "__proto__")).toBe(true)
  })

  it("one-key __proto__ wrap: text equal to the wrapped value is a duplicate", () => {
    const structuredContent = JSON.parse('{"__proto__":[1,2]}')
    const result = decodeMcpCallToolResultV2({ content: [text("[1, 2]")], structuredContent })
    expect(result).toEqual({ ok: true, data: structuredContent })
    expect(Object.getPrototypeOf((result as { data: object }).data)).toBe(Object.prototype)
  })

  it("survives a text block nested deeper than the call stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000)
    const parsed = JSON.parse(deep)
    expect(decodeMcpCallToolResultV2({ content: [text(deep)], structuredContent: parsed })).toEqual({
      ok: true,
      data: parsed,
    })
  })

  it("never throws on a throwing getter", () => {
    const raw = {
      get content(): unknown {
        throw new Error("boom")
      },
    }
    expect(decodeMcpCallToolResultV2(raw)).toEqual({
      ok: false,
      error: { code: "invalid_result", message: "MCP tools/call result could not be decoded: Error: boom" },
    })
  })
})

describe("decodeToolResult", () => {
  const envelope = { content: [text('{"a":1}')], structuredContent: { a: 1 }, _meta: meta }
  const passthrough: [name: string, stamp: string | null | undefined][] = [
    ["null encoding", null],
    ["undefined encoding", undefined],
    ["direct", "direct"],
    ["unknown encoding from a newer build", "mcp-call-tool-result-v3"],
  ]
  it.each(passthrough)("%s passes the raw envelope through untouched", (_name, stamp) => {
    const result = decodeToolResult(effectiveEncoding(stamp), envelope)
    expect(result).toEqual({ ok: true, data: envelope })
    expect((result as { data: unknown }).data).toBe(envelope)
  })

  it.each([
    ["a string", "hi"],
    ["null", null],
    ["undefined", undefined],
  ] as const)("direct passes %s through", (_name, raw) => {
    expect(decodeToolResult("direct", raw)).toEqual({ ok: true, data: raw })
  })

  it("mcp-call-tool-result-v2 decodes", () => {
    expect(decodeToolResult("mcp-call-tool-result-v2", envelope)).toEqual({ ok: true, data: { a: 1 }, meta })
  })
})
