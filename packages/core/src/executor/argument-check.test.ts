import { describe, expect, it } from "vitest"
import { createArgumentCheck } from "./argument-check.js"
import type { Logger } from "../errors.js"

const recording = () => {
  const warned: { message: string; details?: Record<string, unknown> }[] = []
  const logger: Logger = {
    error: () => {},
    info: () => {},
    warn: (message, details) => void warned.push({ message, details }),
  }
  return { logger, warned }
}

/** a tool row as the check reads it: its id and sync time name its validator */
const row = (inputSchema: unknown, syncedAt = 1) => ({ id: "t", syncedAt, inputSchema })

describe("createArgumentCheck", () => {
  it("names a nested place by its path, array items by index", () => {
    const check = createArgumentCheck(recording().logger)
    const schema = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    }
    expect(check(row(schema), "ns.tool", { items: [{ name: 1 }, {}] })?.errors).toEqual([
      { path: "args.items[0].name", expected: 'Instance type "number" is invalid. Expected "string".' },
      { path: "args.items[1].name", expected: "a required property, missing" },
    ])
  })

  it.each([
    ["an unresolvable $ref", { type: "object", properties: { a: { $ref: "#/$defs/missing" } } }],
    ["a type no JSON Schema has", { type: "object", properties: { a: { type: "nonsense" } } }],
  ])("a schema with %s lets every call through, and says so in the log once for the row", (_, schema) => {
    const { logger, warned } = recording()
    const check = createArgumentCheck(logger)
    expect(check(row(schema), "ns.tool", { a: 1 })).toBeNull()
    expect(check(row(schema), "ns.tool", { a: "x" })).toBeNull()
    expect(warned).toEqual([
      {
        message: "a tool's input schema cannot be checked: its calls go through unchecked",
        details: { tool: "t@1", error: expect.any(String) },
      },
    ])
  })

  it("does not refuse a property that a patternProperties pattern allows, though it drops the pattern", () => {
    const check = createArgumentCheck(recording().logger)
    const schema = { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false }
    expect(check(row(schema), "ns.tool", { "x-trace": "abc" })).toBeNull()
  })

  it("checks nothing for an empty or missing schema", () => {
    const check = createArgumentCheck(recording().logger)
    expect(check(row({}), "ns.tool", { anything: 1 })).toBeNull()
    expect(check(row(null, 2), "ns.tool", { anything: 1 })).toBeNull()
  })
})
