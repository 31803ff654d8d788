/** Small builders for `tools/call` results, and argument checking that answers the model, not the wire. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type { z } from "zod"
import type { Outcome } from "@switchboard/core"
import { InvalidInput, failure, parseRequest } from "@switchboard/core"
import { jsonSchemaOf } from "../wire/json-schema.js"
import type { JsonSchema } from "../wire/json-schema.js"

export const textResult = (...texts: string[]): CallToolResult => ({
  content: texts.map((text) => ({ type: "text" as const, text })),
})

/** A tool execution error, so the model can read it and correct itself (the spec's advice for bad input too). */
export const errorResult = (...texts: string[]): CallToolResult => ({ ...textResult(...texts), isError: true })

/** A maximum no real offset reaches: it bounds a number only so that it fits a database integer. */
const NO_REAL_MAXIMUM = 2 ** 31 - 1

/**
 * Bounds that tell a model nothing it would act on, left out of the listing to spare its tokens (the arguments
 * are still checked against them, and a breach is answered naming the field): `multipleOf: 1` beside
 * `type: "integer"`, a maximum no real value reaches, a string's `minLength: 1`.
 */
const dropIdleBounds = (node: unknown): void => {
  if (typeof node !== "object" || node === null) return
  const schema = node as JsonSchema
  if (schema.type === "integer" && schema.multipleOf === 1) delete schema.multipleOf
  if (typeof schema.maximum === "number" && schema.maximum >= NO_REAL_MAXIMUM) delete schema.maximum
  if (schema.type === "string" && schema.minLength === 1) delete schema.minLength
  for (const child of Object.values((schema.properties as object | undefined) ?? {})) dropIdleBounds(child)
  dropIdleBounds(schema.items)
}

/** The JSON Schema a client sees, from the same zod object that checks the arguments. */
export const inputSchemaOf = (schema: z.ZodObject) => {
  const listed = jsonSchemaOf(schema, "input")
  dropIdleBounds(listed)
  return listed as { type: "object" }
}

export const parseArgs = <S extends z.ZodType>(schema: S, args: unknown): Outcome<z.output<S>> => {
  const parsed = parseRequest(schema, args ?? {})
  return parsed.ok ? parsed : failure(new InvalidInput({ message: `invalid arguments: ${parsed.error.message}` }))
}
