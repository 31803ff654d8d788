/** Small builders for `tools/call` results, and argument checking that answers the model, not the wire. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type { z } from "zod"
import type { Outcome } from "@switchboard/core"
import { InvalidInput, failure, parseRequest } from "@switchboard/core"
import { jsonSchemaOf } from "../wire/json-schema.js"

export const textResult = (...texts: string[]): CallToolResult => ({
  content: texts.map((text) => ({ type: "text" as const, text })),
})

/** A tool execution error, so the model can read it and correct itself (the spec's advice for bad input too). */
export const errorResult = (...texts: string[]): CallToolResult => ({ ...textResult(...texts), isError: true })

/** The JSON Schema a client sees, from the same zod object that checks the arguments. */
export const inputSchemaOf = (schema: z.ZodObject) => jsonSchemaOf(schema, "input") as { type: "object" }

export const parseArgs = <S extends z.ZodType>(schema: S, args: unknown): Outcome<z.output<S>> => {
  const parsed = parseRequest(schema, args ?? {})
  return parsed.ok ? parsed : failure(new InvalidInput({ message: `invalid arguments: ${parsed.error.message}` }))
}
