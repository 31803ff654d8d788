/**
 * JSON Schema (draft 2020-12, which OpenAPI 3.1 and MCP both use) from the wire schemas: the one conversion,
 * for the MCP tools' `inputSchema` and the OpenAPI document's components. `io`: a request is described as a
 * client may send it (a query string's digits, a field left to its default); an answer as the server sends it.
 */
import { z } from "zod"

export type JsonSchema = Record<string, unknown>
export type SchemaIo = "input" | "output"

/** zod writes the safe-integer range on every int; it tells a client nothing. */
const dropSafeIntegerBounds = ({ jsonSchema }: { jsonSchema: JsonSchema }) => {
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
}

export const jsonSchemaOf = (schema: z.ZodType, io: SchemaIo): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, override: dropSafeIntegerBounds })
  return rest
}

/**
 * Named schemas, each converted with references to the others as `$ref`s under `uriOf(name)`. A schema used
 * by two components but named by neither is written out in each.
 */
export const jsonSchemasOf = (
  named: Readonly<Record<string, z.ZodType>>,
  io: SchemaIo,
  uriOf: (name: string) => string,
): Record<string, JsonSchema> => {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id })
  const { schemas } = z.toJSONSchema(registry, { io, uri: uriOf, reused: "inline", override: dropSafeIntegerBounds })
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...rest }]) => [id, rest as JsonSchema]),
  )
}
