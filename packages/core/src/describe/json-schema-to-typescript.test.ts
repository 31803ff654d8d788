import { describe, expect, it } from "vitest"
import { jsonSchemaToTypeScript } from "./json-schema-to-typescript.js"
import { createTypeScope } from "./type-scope.js"

const type = (schema: unknown) => jsonSchemaToTypeScript(schema).type

describe("jsonSchemaToTypeScript: constructs", () => {
  const cases: [string, unknown, string][] = [
    ["string", { type: "string", format: "uri" }, "string"],
    ["integer", { type: "integer", minimum: 0 }, "number"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["null", { type: "null" }, "null"],
    ["a type array", { type: ["string", "null"] }, "string | null"],
    ["OpenAPI nullable", { type: "number", nullable: true }, "number | null"],
    ["enum", { type: "string", enum: ["asc", "desc"] }, '"asc" | "desc"'],
    ["enum with numbers and null", { enum: [1, 2, null] }, "1 | 2 | null"],
    ["const", { const: "v2" }, '"v2"'],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "number" }] }, "string | number"],
    [
      "oneOf (zod discriminated union)",
      {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "b" } }, required: ["kind"] },
        ],
      },
      '{\n  kind: "a"\n} | {\n  kind: "b"\n}',
    ],
    [
      "allOf is an intersection",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "number" } } },
        ],
      },
      "{\n  a: string\n} & {\n  b?: number\n}",
    ],
    [
      "an intersection of unions is parenthesized",
      {
        allOf: [
          { anyOf: [{ type: "string" }, { type: "number" }] },
          { anyOf: [{ type: "number" }, { type: "boolean" }] },
        ],
      },
      "(string | number) & (number | boolean)",
    ],
    [
      "oneOf that only varies `required` adds nothing",
      { type: "object", properties: { a: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] },
      "{\n  a?: string\n}",
    ],
    [
      "properties, required and descriptions",
      {
        type: "object",
        properties: {
          query: { type: "string", description: "Search text" },
          limit: { type: "integer", default: 10 },
          "page-token": { type: "string", deprecated: true },
        },
        required: ["query"],
      },
      '{\n  /** Search text */\n  query: string\n  /** @default 10 */\n  limit?: number\n  /** @deprecated */\n  "page-token"?: string\n}',
    ],
    [
      "a multi-line description, with */ inside",
      { type: "object", properties: { a: { type: "string", description: "first line\nends a comment */ here" } } },
      "{\n  /**\n   * first line\n   * ends a comment *\\/ here\n   */\n  a?: string\n}",
    ],
    [
      "additionalProperties: false",
      { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
      "{\n  a: string\n}",
    ],
    [
      "additionalProperties as a schema, alone",
      { type: "object", additionalProperties: { type: "number" } },
      "{ [key: string]: number }",
    ],
    [
      "additionalProperties beside properties admits their types",
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
      "{\n  a?: string\n  [key: string]: number | string | undefined\n}",
    ],
    [
      "additionalProperties: true beside properties",
      { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: true },
      "{\n  a: string\n  [key: string]: unknown\n}",
    ],
    [
      "patternProperties",
      { type: "object", patternProperties: { "^x-": { type: "string" } } },
      "{ [key: string]: string }",
    ],
    ["an object with nothing known", { type: "object" }, "Record<string, unknown>"],
    ["an empty closed object", { type: "object", additionalProperties: false }, "Record<string, never>"],
    ["items", { type: "array", items: { type: "string" } }, "string[]"],
    ["items of a union", { type: "array", items: { type: ["string", "number"] } }, "Array<string | number>"],
    ["an array with no items schema", { type: "array" }, "unknown[]"],
    [
      "prefixItems tuple, closed",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 2 },
      "[string, number]",
    ],
    [
      "prefixItems tuple with optional tail and rest",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: { type: "boolean" }, minItems: 1 },
      "[string, number?, ...boolean[]]",
    ],
    [
      "draft-07 tuple (items array)",
      { type: "array", items: [{ type: "string" }], additionalItems: false, minItems: 1 },
      "[string]",
    ],
    ["type inferred from properties", { properties: { a: { type: "null" } } }, "{\n  a?: null\n}"],
    ["boolean schema true", true, "unknown"],
    ["boolean schema false", false, "never"],
    ["an empty schema", {}, "unknown"],
  ]
  it.each(cases)("%s", (_name, schema, expected) => {
    expect(type(schema)).toBe(expected)
  })
})

describe("jsonSchemaToTypeScript: $ref and definitions", () => {
  it("renders #/$defs and #/definitions as named aliases, returned as declarations", () => {
    const schema = {
      type: "object",
      properties: { owner: { $ref: "#/$defs/User" }, repo: { $ref: "#/definitions/repo-ref" } },
      required: ["owner"],
      $defs: {
        User: {
          type: "object",
          description: "A GitHub user",
          properties: { login: { type: "string" } },
          required: ["login"],
        },
      },
      definitions: { "repo-ref": { type: "string" } },
    }
    const out = jsonSchemaToTypeScript(schema, { namePrefix: "Gh_" })
    expect(out.type).toBe("{\n  owner: Gh_User\n  repo?: Gh_RepoRef\n}")
    expect(out.declarations).toEqual([
      "/** A GitHub user */\ntype Gh_User = {\n  login: string\n}",
      "type Gh_RepoRef = string",
    ])
  })

  it("a recursive definition refers to itself through a property", () => {
    const schema = {
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
    }
    const out = jsonSchemaToTypeScript(schema)
    expect(out.type).toBe("Node_2") // `Node` is a DOM global
    expect(out.declarations).toEqual(["type Node_2 = {\n  children?: Node_2[]\n}"])
  })

  it("a circular alias (a definition that is directly itself) degrades to unknown", () => {
    const schema = {
      $ref: "#/$defs/A",
      $defs: { A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "string" }] }, B: { $ref: "#/$defs/A" } },
    }
    const out = jsonSchemaToTypeScript(schema)
    expect(out.type).toBe("A")
    expect(out.declarations).toEqual(["type B = unknown", "type A = B | string"])
  })

  it("`$ref: #` names the root when it has an alias, and is unknown otherwise", () => {
    const tree = { type: "object", properties: { parent: { $ref: "#" } } }
    expect(jsonSchemaToTypeScript(tree, { rootName: "Tree" }).type).toBe("{\n  parent?: Tree\n}")
    expect(jsonSchemaToTypeScript(tree).type).toBe("{\n  parent?: unknown\n}")
  })

  it("inlines other local pointers, and stops at a cycle", () => {
    expect(type({ type: "object", properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } })).toBe(
      "{\n  a?: string\n  b?: string\n}",
    )
    expect(type({ anyOf: [{ $ref: "#/anyOf/0" }] })).toBe("unknown")
  })

  it("a shared scope declares an identical definition once, and a different one under another name", () => {
    const scope = createTypeScope()
    const user = { type: "object", properties: { login: { type: "string" } } }
    const one = jsonSchemaToTypeScript({ $ref: "#/$defs/User", $defs: { User: user } }, { scope, namePrefix: "Gh_" })
    const two = jsonSchemaToTypeScript(
      { type: "array", items: { $ref: "#/$defs/User" }, $defs: { User: { ...user } } },
      { scope, namePrefix: "Gh_" },
    )
    const other = jsonSchemaToTypeScript(
      { $ref: "#/$defs/User", $defs: { User: { type: "string" } } },
      { scope, namePrefix: "Gh_" },
    )
    expect([one.type, two.type, other.type]).toEqual(["Gh_User", "Gh_User[]", "Gh_User_2"])
    expect(two.declarations).toEqual(one.declarations)
    expect(other.declarations).toEqual(["type Gh_User_2 = string"])
  })

  it("a definition named like a global type does not shadow it", () => {
    expect(jsonSchemaToTypeScript({ $ref: "#/$defs/Date", $defs: { Date: { type: "string" } } }).type).toBe("Date_2")
  })
})

describe("jsonSchemaToTypeScript: degrades, never throws", () => {
  let deep: unknown = { type: "string" }
  for (let i = 0; i < 5000; i++) deep = { type: "array", items: deep }
  const cyclic: Record<string, unknown> = { type: "object" }
  cyclic.properties = { self: cyclic }

  const cases: [string, unknown, string | RegExp][] = [
    ["null", null, "unknown"],
    ["a number", 42, "unknown"],
    ["a string", "object", "unknown"],
    ["an array", [], "unknown"],
    ["an unknown type", { type: "date" }, "unknown"],
    ["a non-string type", { type: 5 }, "unknown"],
    ["a remote $ref", { $ref: "https://example.com/schema.json" }, "unknown"],
    ["an $anchor ref", { $ref: "#node" }, "unknown"],
    ["a dangling local $ref", { $ref: "#/$defs/Missing" }, "unknown"],
    ["a malformed pointer", { $ref: "#/%E0%A4%A" }, "unknown"],
    ["a non-string $ref", { $ref: 5, type: "string" }, "string"],
    ["properties that are not an object", { type: "object", properties: null }, "Record<string, unknown>"],
    ["an enum of objects", { enum: [{ a: 1 }] }, "unknown"],
    ["not", { not: { type: "string" } }, "unknown"],
    ["5000 levels of nesting", deep, /^unknown(\[\])+$/],
    ["a cyclic object (not JSON, but still)", cyclic, /unknown/],
    [
      "a property named constructor",
      { type: "object", properties: { constructor: { type: "string" } } },
      "{\n  constructor?: string\n}",
    ],
    ["a ref to a prototype name", { $ref: "#/$defs/constructor", $defs: {} }, "unknown"],
  ]
  it.each(cases)("%s", (_name, schema, expected) => {
    const out = type(schema)
    if (typeof expected === "string") expect(out).toBe(expected)
    else expect(out).toMatch(expected)
  })
})
