/**
 * Checks decoded `data` against the tool's declared output schema. A mismatch never blocks delivery (the
 * script gets what the server sent); it is recorded with the call so an operator can see a server that
 * breaks its own contract. Validators are compiled once per schema and kept in a small bounded cache.
 */
import { Validator } from "@cfworker/json-schema"

const MAX_CACHED = 500
const cache = new Map<string, Validator>()

/** Past this size the check is skipped: it runs on the host thread for every call. */
export const MAX_CHECKED_BYTES = 1024 * 1024

/**
 * Keywords whose checking cost the server controls (a `pattern` regex the host would run without a time
 * limit, `uniqueItems` comparing every pair) are dropped before compiling: the check is telemetry only.
 */
const UNBOUNDED_KEYWORDS = new Set(["pattern", "patternProperties", "format", "uniqueItems"])
const withoutUnboundedKeywords = (schema: unknown, depth = 0): unknown => {
  if (depth > 64) return {}
  if (Array.isArray(schema)) return schema.map((item) => withoutUnboundedKeywords(item, depth + 1))
  if (typeof schema !== "object" || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (UNBOUNDED_KEYWORDS.has(key)) continue
    Object.defineProperty(out, key, {
      value: withoutUnboundedKeywords(value, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}

const validatorFor = (key: string, schema: unknown): Validator | null => {
  const hit = cache.get(key)
  if (hit) return hit
  try {
    const validator = new Validator(withoutUnboundedKeywords(schema) as object, "2020-12", true)
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
    cache.set(key, validator)
    return validator
  } catch {
    return null // a schema the validator cannot compile types nothing; it is not the script's problem
  }
}

/** The tool row whose declared output is checked: its id and sync time name its validator in the cache. */
export interface DeclaringTool {
  id: string
  syncedAt: number
  outputSchema: unknown
}

/**
 * Returns null when the data conforms (or cannot be checked), else a short description of the first mismatch.
 * `dataBytes`: the data's size as JSON, null when it has none.
 */
export const outputSchemaMismatch = (tool: DeclaringTool, data: unknown, dataBytes: number | null): string | null => {
  const schema = tool.outputSchema
  if (schema === null || typeof schema !== "object" || dataBytes === null || dataBytes > MAX_CHECKED_BYTES) return null
  const validator = validatorFor(`${tool.id}@${tool.syncedAt}`, schema)
  if (!validator) return null
  try {
    const result = validator.validate(data)
    if (result.valid) return null
    const first = result.errors.find((e) => e.instanceLocation !== "#") ?? result.errors[0]
    return first ? `${first.instanceLocation}: ${first.error}`.slice(0, 500) : "does not match the output schema"
  } catch (cause) {
    return null
  }
}
