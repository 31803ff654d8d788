/**
 * The fields of a config file its schema does not know, each with the names the schema knows in that place, so a
 * message can suggest the one probably meant (`transprot`: "transport"). A source is a POST body, which ignores
 * fields it does not know; in a file they are a typo. Two ways to find them:
 * - after a parse that succeeded, a key the parse dropped: an object schema strips what it does not know;
 * - along the file's JSON Schema, which names the fields of each object. This also works when the parse failed,
 *   which is what a misspelt required field does (`transport` is then missing). A union (a transport's `stdio` or
 *   `http`) is narrowed to the variants whose `const` fields (`type`) the input matches, as the parse chooses.
 */
export type Path = (string | number)[]

export interface UnknownField {
  path: Path
  /** the fields the schema knows in the object that holds it */
  known: string[]
}

interface JsonSchema {
  properties?: Record<string, JsonSchema>
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  const?: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)

/**
 * Fields of the input that the parse dropped: a key present in the input and absent from the output. Records
 * (env, headers) keep every key, so they never count.
 */
export const droppedFields = (input: unknown, output: unknown, path: Path = []): Path[] => {
  if (Array.isArray(input) && Array.isArray(output))
    return input.flatMap((item, index) => droppedFields(item, output[index], [...path, index]))
  if (!isObject(input) || !isObject(output)) return []
  return Object.keys(input).flatMap((key) =>
    key in output ? droppedFields(input[key], output[key], [...path, key]) : [[...path, key]],
  )
}

const variants = (schema: JsonSchema): JsonSchema[] => {
  const union = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]
  return union.length > 0 ? union.flatMap(variants) : [schema]
}

/** a variant the input can be: each of its `const` fields has that value in the input */
const fits = (schema: JsonSchema, value: Record<string, unknown>) =>
  Object.entries(schema.properties ?? {}).every(
    ([key, field]) => field.const === undefined || value[key] === field.const,
  )

const walk = (value: unknown, schemas: JsonSchema[], path: Path, found: UnknownField[]) => {
  const options = schemas.flatMap(variants)
  if (Array.isArray(value)) {
    const items = options.flatMap((schema) => (schema.items ? [schema.items] : []))
    if (items.length > 0) value.forEach((item, index) => walk(item, items, [...path, index], found))
    return
  }
  if (!isObject(value)) return
  const objects = options.filter(
    (schema) => schema.properties !== undefined || schema.additionalProperties !== undefined,
  )
  if (objects.length === 0) return
  const fitting = objects.filter((schema) => fits(schema, value))
  const applying = fitting.length > 0 ? fitting : objects
  const known = [...new Set(applying.flatMap((schema) => Object.keys(schema.properties ?? {})))]
  // a record (env, headers) or an object that takes any field
  const open = applying.filter((schema) => schema.additionalProperties !== false)
  const anyField = open.flatMap((schema) =>
    isObject(schema.additionalProperties) ? [schema.additionalProperties] : [],
  )
  for (const [key, item] of Object.entries(value)) {
    const named = applying.flatMap((schema) => (schema.properties?.[key] ? [schema.properties[key]] : []))
    if (named.length === 0 && open.length === 0) found.push({ path: [...path, key], known })
    else walk(item, [...named, ...anyField], [...path, key], found)
  }
}

/** The input's fields that `schema` (a JSON Schema without `$ref`) does not know, wherever they are. */
export const unknownFields = (input: unknown, schema: object): UnknownField[] => {
  const found: UnknownField[] = []
  walk(input, [schema as JsonSchema], [], found)
  return found
}
