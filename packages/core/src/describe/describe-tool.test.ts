import { describe, expect, it } from "vitest"
import type { StoredShape, ToolRow } from "../catalog/rows.js"
import { inferShape } from "../shapes/infer-shape.js"
import { mergeShapes } from "../shapes/merge-shapes.js"
import { describeTool, describeTools, loadObservedShape, provenance } from "./describe-tool.js"
import { TOOL_RESULT_DECLARATION } from "./tool-result-declaration.js"

const toolRow = (over: Partial<ToolRow> & Pick<ToolRow, "name">): ToolRow => ({
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

const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`)

/** What the store holds after a few real calls: the shape folded call by call. */
const observed = (values: unknown[], first: string, last: string): StoredShape => ({
  shape: JSON.parse(JSON.stringify(values.map((value) => inferShape(value)).reduce((a, b) => mergeShapes(a, b)))),
  sampleCount: values.length,
  firstSeenAt: day(first),
  lastSeenAt: day(last),
})

const getSum = toolRow({
  name: "get-sum",
  description: "Adds two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number", description: "First number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
})

describe("describeTool", () => {
  it("declared under `direct` (an OpenAPI answer's schema, its shared definitions as $defs); a NULL stamp declares nothing", () => {
    const outputSchema = {
      $ref: "#/$defs/repo",
      $defs: { repo: { type: "object", properties: { id: { type: "integer" } } } },
    }
    const stamped = toolRow({ name: "repos/get", resultEncoding: "direct", encoding: "direct", outputSchema })
    const out = describeTool({ tool: stamped, shape: null })
    expect(out.outputSource).toBe("declared")
    expect(out.typescript).toContain("type Everything_Repo = {\n  id?: number\n}")
    expect(out.typescript).toContain(
      '"repos/get"(args?: Everything_ReposGet_Input): Promise<ToolResult<Everything_ReposGet_Data>>',
    )
    const unstamped = toolRow({ name: "echo", resultEncoding: null, encoding: "direct", outputSchema })
    expect(describeTool({ tool: unstamped, shape: null }).outputSource).toBe("unknown")
  })

  it("declared: the output schema types data directly", () => {
    const tool = toolRow({
      name: "structured",
      namespace: "contract",
      description: "Weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: {
        type: "object",
        properties: { temperature: { type: "number" }, conditions: { type: "string" } },
        required: ["temperature"],
      },
    })
    const out = describeTool({ tool, shape: observed([{ other: 1 }], "2026-11-02", "2026-11-02") })
    expect(out.outputSource).toBe("declared")
    expect(out.path).toBe("contract.structured")
    expect(out.declarations).toEqual([TOOL_RESULT_DECLARATION])
    expect(out.typescript).toBe(`${TOOL_RESULT_DECLARATION}

/** Weather for a city */
type Contract_Structured_Input = {
  city: string
}

/** declared by the tool's output schema */
type Contract_Structured_Data = {
  temperature: number
  conditions?: string
}

declare const tools: {
  contract: {
    structured(args: Contract_Structured_Input): Promise<ToolResult<Contract_Structured_Data>>
  }
}`)
  })

  it("observed: the stored shape, with its provenance", () => {
    const shape = observed(
      [{ sum: 3 }, { sum: 4.5, note: "rounded" }, { sum: -1.5, note: "rounded" }],
      "2026-11-02",
      "2026-11-29",
    )
    const out = describeTool({ tool: getSum, shape })
    expect(out.outputSource).toBe("observed")
    expect(out.typescript).toBe(`${TOOL_RESULT_DECLARATION}

/** Adds two numbers */
type Everything_GetSum_Input = {
  /** First number */
  a: number
  b: number
}

/** observed in 3 calls, 2026-11-02 to 2026-11-29 */
type Everything_GetSum_Data = {
  sum: number
  note?: string
}

declare const tools: {
  everything: {
    "get-sum"(args: Everything_GetSum_Input): Promise<ToolResult<Everything_GetSum_Data>>
  }
}`)
  })

  it("cold: unknown, saying the tool has never been called", () => {
    const out = describeTool({ tool: toolRow({ name: "printEnv" }), shape: null })
    expect(out.outputSource).toBe("unknown")
    expect(out.typescript).toContain(
      "/** never called yet: the shape of data is unknown */\ntype Everything_PrintEnv_Data = unknown",
    )
    // No required arguments: the call may omit them.
    expect(out.typescript).toContain(
      "printEnv(args?: Everything_PrintEnv_Input): Promise<ToolResult<Everything_PrintEnv_Data>>",
    )
    expect(out.typescript).toContain("type Everything_PrintEnv_Input = Record<string, unknown>")
  })

  it("an output schema it cannot render falls back to the observed shape", () => {
    const tool = toolRow({ name: "odd", outputSchema: { $ref: "https://example.com/out.json" } })
    expect(describeTool({ tool, shape: observed(["text"], "2026-11-02", "2026-11-02") }).outputSource).toBe("observed")
  })

  it("never renders an envelope: text-only results are typed as what the decoder delivers", () => {
    const out = describeTool({
      tool: toolRow({ name: "echo" }),
      shape: observed(["Echo: hi", "Echo: there"], "2026-11-02", "2026-11-03"),
    })
    expect(out.typescript).toContain("type Everything_Echo_Data = string")
    expect(out.typescript).not.toMatch(/structuredContent|isError|content\[0\]/)
  })

  it("a garbage input schema still takes an object", () => {
    const out = describeTool({ tool: toolRow({ name: "x", inputSchema: "not a schema" }), shape: null })
    expect(out.typescript).toContain("type Everything_X_Input = Record<string, unknown>")
  })

  it("shared $defs become declarations of their own", () => {
    const tool = toolRow({
      name: "get_user",
      inputSchema: {
        type: "object",
        properties: { who: { $ref: "#/$defs/UserRef" } },
        required: ["who"],
        $defs: { UserRef: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      },
    })
    const out = describeTool({ tool, shape: null })
    expect(out.declarations).toEqual([TOOL_RESULT_DECLARATION, "type Everything_UserRef = {\n  id: string\n}"])
    expect(out.typescript).toContain("type Everything_GetUser_Input = {\n  who: Everything_UserRef\n}")
  })
})

/** A REST answer whose whole type is far past what describe declares at once: forty objects of forty fields. */
const longAnswer = toolRow({
  name: "repos/get",
  description: "Get a repository",
  resultEncoding: "direct",
  encoding: "direct",
  outputSchema: {
    type: "object",
    properties: {
      full_name: { type: "string" },
      ...Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `part_${i}`,
          {
            type: "object",
            properties: Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`field_${k}`, { type: "string" }])),
          },
        ]),
      ),
    },
    required: ["full_name"],
  },
})

describe("a long declared data type", () => {
  it("is declared to the levels that fit, a deeper object as a record naming its fields, and says so", () => {
    const out = describeTool({ tool: longAnswer, shape: null })
    expect(out.outputSource).toBe("declared")
    expect(out.typescript).toContain("declared by the tool's output schema to 1 level of fields")
    expect(out.typescript).toContain('describe with "fields": ["a.b", ...] declares only those, in full')
    expect(out.typescript).toContain("  full_name: string\n")
    expect(out.typescript).toContain(
      "  /** fields: field_0, field_1, field_2, field_3, field_4, field_5, field_6, field_7, field_8, field_9, " +
        "field_10, field_11, … (40) */\n  part_0?: Record<string, unknown>",
    )
    expect(out.typescript.length).toBeLessThan(10_000)
    expect(out.typescript).toContain("/** Get a repository */")
  })

  it("with fields: only those, in full, without the description the first answer gave", () => {
    const out = describeTool({ tool: longAnswer, shape: null, fields: ["full_name", "part_3.field_7", "nope"] })
    expect(out.typescript).toContain(
      "/** declared by the tool's output schema: only the fields asked for; it declares no nope */\n" +
        "type Everything_ReposGet_Data = {\n  full_name: string\n  part_3?: {\n    field_7?: string\n  }\n}",
    )
    expect(out.typescript).not.toContain("Get a repository")
  })

  it("with fields it has none of: as without them, saying so (one request names several tools' fields)", () => {
    const out = describeTool({ tool: getSum, shape: null, fields: ["head.sha"] })
    expect(out.typescript).toBe(describeTool({ tool: getSum, shape: null }).typescript)
    const declared = describeTool({ tool: longAnswer, shape: null, fields: ["head.sha"] }).typescript
    expect(declared).toContain("(it declares none of the fields asked for)")
    expect(declared).toContain("Get a repository")
  })
})

describe("describeTools", () => {
  it("shares ToolResult and identical definitions, and merges namespaces", () => {
    const user = { type: "object", properties: { login: { type: "string" } }, required: ["login"] }
    const a = toolRow({
      name: "get_user",
      namespace: "gh",
      inputSchema: { type: "object", properties: { user: { $ref: "#/$defs/User" } }, $defs: { User: user } },
    })
    const b = toolRow({
      name: "list_users",
      namespace: "gh",
      outputSchema: {
        type: "object",
        properties: { users: { type: "array", items: { $ref: "#/$defs/User" } } },
        $defs: { User: { ...user } },
      },
    })
    const c = toolRow({ name: "echo", namespace: "everything" })
    const text = describeTools([
      { tool: a, shape: null },
      { tool: b, shape: null },
      { tool: c, shape: observed(["x"], "2026-11-02", "2026-11-02") },
      { tool: a, shape: null },
    ])
    expect(text.split("type ToolResult<").length).toBe(2)
    expect(text.split("type Gh_User =").length).toBe(2)
    expect(text).toContain("  users?: Gh_User[]")
    expect(text).toContain(`declare const tools: {
  gh: {
    get_user(args?: Gh_GetUser_Input): Promise<ToolResult<Gh_GetUser_Data>>
    list_users(args?: Gh_ListUsers_Input): Promise<ToolResult<Gh_ListUsers_Data>>
  }
  everything: {
    echo(args?: Everything_Echo_Input): Promise<ToolResult<Everything_Echo_Data>>
  }
}`)
  })

  it("two tools whose names sanitize alike get distinct aliases", () => {
    const text = describeTools([
      { tool: toolRow({ name: "get-sum" }), shape: null },
      { tool: toolRow({ name: "get_sum" }), shape: null },
    ])
    expect(text).toContain('"get-sum"(args?: Everything_GetSum_Input)')
    expect(text).toContain("get_sum(args?: Everything_GetSum_Input_2)")
  })
})

describe("contract-scoped recall", () => {
  it("looks the shape up under the tool's current effective encoding only", async () => {
    const asked: string[] = []
    const store = {
      getShape: async (toolId: string, encoding: string) => {
        asked.push(`${toolId}@${encoding}`)
        return encoding === "direct"
          ? observed([{ content: [{ type: "text", text: "x" }] }], "2026-10-01", "2026-10-01")
          : null
      },
    }
    // Re-stamped to v2: the envelope-shaped data learned under `direct` is never served.
    const v2 = toolRow({ name: "echo", resultEncoding: "mcp-call-tool-result-v2", encoding: "mcp-call-tool-result-v2" })
    expect(describeTool({ tool: v2, shape: await loadObservedShape(store, v2) }).outputSource).toBe("unknown")
    // An old row (NULL stamp) still means direct, as the store reads it.
    const old = toolRow({ name: "echo", resultEncoding: null, encoding: "direct" })
    expect(describeTool({ tool: old, shape: await loadObservedShape(store, old) }).outputSource).toBe("observed")
    expect(asked).toEqual(["id-echo@mcp-call-tool-result-v2", "id-echo@direct"])
  })
})

describe("provenance", () => {
  const cases: [string, Pick<StoredShape, "sampleCount" | "firstSeenAt" | "lastSeenAt">, string][] = [
    [
      "a range",
      { sampleCount: 37, firstSeenAt: day("2026-11-02"), lastSeenAt: day("2026-11-29") },
      "observed in 37 calls, 2026-11-02 to 2026-11-29",
    ],
    [
      "one day",
      { sampleCount: 3, firstSeenAt: day("2026-11-02"), lastSeenAt: day("2026-11-02") },
      "observed in 3 calls on 2026-11-02",
    ],
    [
      "one call",
      { sampleCount: 1, firstSeenAt: day("2026-11-02"), lastSeenAt: day("2026-11-02") },
      "observed in 1 call on 2026-11-02",
    ],
    ["bad times", { sampleCount: 2, firstSeenAt: Number.NaN, lastSeenAt: 1e20 }, "observed in 2 calls"],
  ]
  it.each(cases)("%s", (_name, stored, expected) => {
    expect(provenance(stored)).toBe(expected)
  })
})
