/**
 * The TypeScript describe prints must compile: generated declarations pasted above a script that uses them
 * go through the real compiler (strict) with zero diagnostics. A negative control proves it type-checks.
 */
import ts from "typescript"
import { describe, expect, it } from "vitest"
import type { StoredShape, ToolRow } from "../catalog/rows.js"
import { inferShape } from "../shapes/infer-shape.js"
import { mergeShapes } from "../shapes/merge-shapes.js"
import { dataFields, dataToLevels } from "./data-views.js"
import { describeTool, describeTools } from "./describe-tool.js"
import { jsonSchemaToTypeScript } from "./json-schema-to-typescript.js"
import { TOOL_RESULT_DECLARATION } from "./tool-result-declaration.js"
import { createTypeScope } from "./type-scope.js"

const here = new URL(".", import.meta.url).pathname

const options: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: [],
  skipLibCheck: true,
}

/** Compiles virtual files (each made a module, so their top-level names do not collide) in one program. */
const diagnostics = (sources: Record<string, string>): Record<string, string[]> => {
  const files = Object.fromEntries(
    Object.entries(sources).map(([name, text]) => [`${here}${name}.ts`, `export {}\n${text}\n`]),
  )
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (name, language, ...rest) => {
    const text = files[name]
    return text !== undefined
      ? ts.createSourceFile(name, text, language)
      : getSourceFile.call(host, name, language, ...rest)
  }
  host.fileExists = (name) => name in files || fileExists.call(host, name)
  host.readFile = (name) => files[name] ?? readFile.call(host, name)
  const program = ts.createProgram(Object.keys(files), options, host)
  const out: Record<string, string[]> = Object.fromEntries(Object.keys(sources).map((name) => [name, []]))
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName.slice(here.length, -3) : "global"
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1
    ;(out[name] ??= []).push(`${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
  }
  return out
}

const tool = (over: Partial<ToolRow> & Pick<ToolRow, "name">): ToolRow => ({
  id: `id-${over.name}`,
  sourceId: "src",
  namespace: "everything",
  path: `${over.namespace ?? "everything"}.${over.name}`,
  description: null,
  inputSchema: { type: "object", properties: {} },
  outputSchema: null,
  annotations: null,
  resultEncoding: "mcp-call-tool-result-v2",
  encoding: "mcp-call-tool-result-v2",
  syncedAt: 0,
  ...over,
})

const observed = (values: unknown[]): StoredShape => ({
  shape: JSON.parse(JSON.stringify(values.map((value) => inferShape(value)).reduce((a, b) => mergeShapes(a, b)))),
  sampleCount: values.length,
  firstSeenAt: Date.UTC(2026, 10, 2),
  lastSeenAt: Date.UTC(2026, 10, 29),
})

const defs = {
  Node: {
    type: "object",
    properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    required: ["value"],
  },
  A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "string" }] },
  B: { $ref: "#/$defs/A" },
  Map: { type: "object", additionalProperties: { $ref: "#/$defs/Map" } },
  Date: { type: "string", format: "date" },
}

const inputs = [
  {
    tool: tool({
      name: "structured",
      namespace: "contract",
      description: "Weather */ for a city\nsecond line",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, units: { enum: ["c", "f"] } },
        required: ["city"],
      },
      outputSchema: {
        type: "object",
        properties: {
          temperature: { type: "number" },
          tree: { $ref: "#/$defs/Node" },
          loop: { $ref: "#/$defs/A" },
          map: { $ref: "#/$defs/Map" },
          when: { $ref: "#/$defs/Date" },
          pair: {
            type: "array",
            prefixItems: [{ type: "string" }, { type: "integer" }],
            items: { type: "boolean" },
            minItems: 1,
          },
          extra: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
          both: {
            allOf: [
              { type: "object", properties: { x: { type: "string" } } },
              { anyOf: [{ type: "object", properties: { y: { type: "number" } } }, { type: "null" }] },
            ],
          },
          maybe: { type: "string", nullable: true },
          self: { $ref: "#" },
          remote: { $ref: "https://example.com/x.json" },
        },
        required: ["temperature"],
        $defs: defs,
      },
    }),
    shape: null,
  },
  {
    tool: tool({
      name: "get-sum",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    }),
    shape: observed([
      {
        sum: 3,
        "content-type": "x",
        __proto__x: 1,
        items: [{ id: 1 }, { id: 2, tag: null }],
        byDay: { "2026-11-01": 1, "2026-11-02": 2 },
      },
      JSON.parse('{"sum": 4.5, "__proto__": {"k": [1, "a"]}, "items": [], "deep": [[[[[[[[[[1]]]]]]]]]]}'),
    ]),
  },
  { tool: tool({ name: "printEnv" }), shape: null },
  {
    tool: tool({ name: "weird tool.name", namespace: "my_ns", inputSchema: "garbage" }),
    shape: observed(["text", 1, null]),
  },
  {
    tool: tool({
      name: "list",
      namespace: "my_ns",
      inputSchema: { type: "object", properties: { node: { $ref: "#/$defs/Node" } }, $defs: defs },
    }),
    shape: null,
  },
]

const script = `
async function main() {
  const weather = await tools.contract.structured({ city: "Oslo", units: "c" })
  if (!weather.ok) {
    if (weather.error.code === "tool_timeout") return "retry"
    return weather.error.message
  }
  const t: number = weather.data.temperature
  const firstChild: number | undefined = weather.data.tree?.children?.[0]?.value
  const sum = await tools.everything["get-sum"]({ a: 1, b: 2 })
  if (!sum.ok) return sum.error.code
  const total: number = sum.data.sum
  const ids = (sum.data.items ?? []).map((item) => item.id)
  const day: number | undefined = sum.data.byDay?.["2026-11-01"]
  const odd = sum.data.__proto__?.k
  await tools.everything.printEnv()
  const w = await tools.my_ns["weird tool.name"]({ anything: 1 })
  const text: string | number | null = w.ok ? w.data : null
  return { t, firstChild, total, ids, day, odd, text }
}
`

describe("generated TypeScript compiles", () => {
  it("describeTools output plus a script that uses it: zero diagnostics, and a misuse is caught", () => {
    const block = describeTools(inputs)
    const single = describeTool(inputs[1] as (typeof inputs)[number]).typescript
    const misuse = `async function bad() {
  const r = await tools.everything["get-sum"]({ a: "1" })
  if (r.ok) r.data.missing
  return r.data
}`
    const result = diagnostics({
      many: `${block}\n${script}`,
      single: `${single}\nasync function main() { const r = await tools.everything["get-sum"]({ a: 1, b: 2 }); return r.ok ? r.data.sum : r.error.code }`,
      bad: `${block}\n${misuse}`,
    })
    expect(result.many).toEqual([])
    expect(result.single).toEqual([])
    expect(result.bad?.length).toBeGreaterThanOrEqual(3)
  })

  it("every schema construct and every degradation renders to a type tsc accepts", () => {
    const schemas: unknown[] = [
      { type: ["string", "null"] },
      { enum: ["a", 1, true, null] },
      { const: 'x\u2028y"' },
      {
        type: "object",
        properties: {
          "a-b": { type: "string" },
          "1": { type: "number" },
          __proto__x: {},
          constructor: { type: "string" },
        },
      },
      {
        type: "object",
        patternProperties: { "^x": { type: "number" } },
        properties: { y: { type: "string" } },
        required: ["y"],
      },
      { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: { type: "null" } },
      { type: "array", prefixItems: [{ type: "string" }], maxItems: 1 },
      {
        allOf: [
          { anyOf: [{ type: "string" }, { type: "number" }] },
          { anyOf: [{ type: "number" }, { type: "boolean" }] },
        ],
      },
      { $ref: "#/$defs/X", $defs: { X: { $ref: "#/$defs/X" } } },
      { $ref: "#/definitions/L", definitions: { L: { type: "array", items: { $ref: "#/definitions/L" } } } },
      { anyOf: [{ $ref: "#/anyOf/0" }] },
      { $ref: "#" },
      null,
      false,
      { type: "array", items: false },
      { type: "object", additionalProperties: false },
    ]
    const scope = createTypeScope()
    const lines: string[] = []
    schemas.forEach((schema, i) => {
      const out = jsonSchemaToTypeScript(schema, { scope, rootName: `Root${i}`, namePrefix: "S_" })
      lines.push(...out.declarations, `type Root${i} = ${out.type}`)
    })
    expect(diagnostics({ schemas: [...new Set(lines)].join("\n\n") }).schemas).toEqual([])
  })

  it("a shortened declaration of data admits every value of the whole one: to levels, or only the named fields", () => {
    const user = {
      type: "object",
      properties: {
        login: { type: "string" },
        plan: { type: "object", properties: { seats: { type: "integer" } }, required: ["seats"] },
      },
      required: ["login"],
    }
    const data = {
      type: "object",
      properties: {
        id: { type: "integer" },
        user: { $ref: "#/$defs/User", nullable: true },
        labels: { type: "array", items: { anyOf: [{ type: "string" }, { $ref: "#/$defs/Label" }] } },
        head: {
          type: "object",
          properties: { sha: { type: "string" }, repo: { $ref: "#/$defs/Repo" } },
          required: ["sha", "repo"],
        },
        tree: { $ref: "#/$defs/Node" },
        extra: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
        both: {
          allOf: [
            { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
            { anyOf: [{ type: "object", properties: { y: { $ref: "#/$defs/User" } } }, { type: "null" }] },
          ],
        },
        closed: { type: "object", properties: { k: { type: "boolean" } }, additionalProperties: false },
      },
      required: ["id", "user", "head"],
      $defs: {
        ...defs,
        User: user,
        Label: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        Repo: { type: "object", properties: { full_name: { type: "string" }, owner: { $ref: "#/$defs/User" } } },
      },
    }
    const declared = (name: string, schema: unknown) => {
      const out = jsonSchemaToTypeScript(schema, { rootName: name, namePrefix: `${name}_` })
      return [...out.declarations, `type ${name} = ${out.type}`].join("\n\n")
    }
    const fields = ["id", "user.plan.seats", "labels.name", "head.repo", "tree.children.value", "extra.a", "both.y"]
    const views = {
      Levels1: dataToLevels(data, 1).schema,
      Levels2: dataToLevels(data, 2).schema,
      Levels3: dataToLevels(data, 3).schema,
      Picked: dataFields(data, fields).schema,
      ListPicked: dataFields({ type: "array", items: data, $defs: data.$defs }, ["user.login", "head.sha"]).schema,
    }
    const checks = `${declared("Whole", data)}
${Object.entries(views)
  .map(([name, view]) => declared(name, view))
  .join("\n\n")}
declare const whole: Whole
const levels1: Levels1 = whole
const levels2: Levels2 = whole
const levels3: Levels3 = whole
const picked: Picked = whole
const list: ListPicked = [whole]
// what a script reads of a view is typed, not unknown
const id: number = levels1.id
const sha: string = levels2.head.sha
const seats: number | undefined = picked.user?.plan?.seats
const login: string | undefined = list[0]?.user?.login
`
    // the control: a view that narrowed a type would not accept the whole
    const narrowed = `${declared("Whole", data)}
declare const whole: Whole
const wrong: { id: string } = whole
const missing: { id: number; absent: string } = whole
`
    const result = diagnostics({ checks, narrowed })
    expect(result.checks).toEqual([])
    expect(result.narrowed).toHaveLength(2)
  })

  it("the printed ToolResult is identical to the one in result.ts", () => {
    const equal = `import type * as Core from "../result.js"
${TOOL_RESULT_DECLARATION}
type Equal<A, B> = (<G>() => G extends A ? 1 : 2) extends (<G>() => G extends B ? 1 : 2) ? true : false
const result: Equal<ToolResult<{ n: number[] }>, Core.ToolResult<{ n: number[] }>> = true
const byDefault: Equal<ToolResult, Core.ToolResult> = true
const error: Equal<ToolError, Core.ToolError> = true
const block: Equal<ContentBlock, Core.ContentBlock> = true
const codes: Equal<ToolErrorCode, Core.ToolErrorCode> = true
const drifted: Equal<ToolResult<string>, Core.ToolResult<number>> = false
`
    expect(diagnostics({ equal }).equal).toEqual([])
  })
})
