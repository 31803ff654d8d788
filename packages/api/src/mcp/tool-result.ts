/** Small builders for `tools/call` results, and argument checking that answers the model, not the wire. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import type { Outcome } from "@switchboard/core"
import { InvalidInput, failure, success } from "@switchboard/core"

export const textResult = (...texts: string[]): CallToolResult => ({
  content: texts.map((text) => ({ type: "text" as const, text })),
})

/** A tool execution error, so the model can read it and correct itself (the spec's advice for bad input too). */
export const errorResult = (...texts: string[]): CallToolResult => ({ ...textResult(...texts), isError: true })

/** The JSON Schema a client sees, from the same zod object that checks the arguments. */
export const inputSchemaOf = (schema: z.ZodObject) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" })
  return rest as { type: "object"; [key: string]: unknown }
}

export const parseArgs = <S extends z.ZodObject>(schema: S, args: unknown): Outcome<z.output<S>> => {
  const parsed = schema.safeParse(args ?? {})
  return parsed.success
    ? success(parsed.data)
    : failure(new InvalidInput({ message: `invalid arguments: ${z.prettifyError(parsed.error)}` }))
}
