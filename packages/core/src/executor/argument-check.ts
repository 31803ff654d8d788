/**
 * A call's arguments checked against the tool's declared input schema before the call, so arguments the tool
 * cannot take fail at once as `invalid_arguments`, naming where and what was expected, and the upstream sees no
 * request. One validator per tool row (its id and sync time), compiled at its first call and kept in a bounded
 * cache. A schema the validator cannot compile checks nothing: the call goes through, as it would without the
 * check, and that is logged once per row.
 */
import { Validator } from "@cfworker/json-schema"
import type { OutputUnit } from "@cfworker/json-schema"
import type { Logger } from "../errors.js"

const MAX_CACHED = 1_000
/** how many of the mismatches a message names */
const MAX_NAMED = 3
/** arguments larger than this are not checked here (the upstream still checks them): the check runs on the host thread */
export const MAX_CHECKED_ARG_CHARS = 256 * 1024

/**
 * Keywords whose cost the upstream's schema would set on our thread: a `pattern` regex run without a time limit,
 * `uniqueItems` comparing every pair, `format` checks. They are dropped: the upstream still applies them. Where
 * `patternProperties` goes, `additionalProperties` and `unevaluatedProperties` go too, so that a property the
 * dropped patterns allowed is not refused as unknown.
 */
const TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"])
const isTypeName = (type: unknown) => typeof type === "string" && TYPES.has(type)

const looser = (schema: unknown, depth = 0): unknown => {
  if (depth > 64) return {}
  if (Array.isArray(schema)) return schema.map((item) => looser(item, depth + 1))
  if (typeof schema !== "object" || schema === null) return schema
  const patterned = "patternProperties" in schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" || key === "patternProperties" || key === "format" || key === "uniqueItems") continue
    if (patterned && (key === "additionalProperties" || key === "unevaluatedProperties")) continue
    // the validator refuses every value for a type it does not know: a broken schema, not the caller's mistake
    if (key === "type" && !(isTypeName(value) || (Array.isArray(value) && value.every(isTypeName))))
      throw new Error(`"type" ${JSON.stringify(value)} is not a JSON Schema type`)
    // defineProperty: a property named __proto__ stays a property
    Object.defineProperty(out, key, {
      value: looser(value, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return out
}

const segment = (path: string, part: string) =>
  /^\d+$/.test(part)
    ? `${path}[${part}]`
    : /^[A-Za-z_$][\w$]*$/.test(part)
      ? `${path}.${part}`
      : `${path}[${JSON.stringify(part)}]`

/** `#/items/0/name` as `args.items[0].name` */
const pathOf = (location: string) =>
  location
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce(segment, "args")

/** keywords whose unit only says that something beneath it failed: the unit beneath names it */
const WRAPPERS = new Set([
  "properties",
  "items",
  "prefixItems",
  "allOf",
  "$ref",
  "additionalProperties",
  "dependentSchemas",
])

/** Each mismatch where it is, in a person's words: a missing property at its own path, an unknown one as such. */
const mismatchesOf = (units: readonly OutputUnit[]) =>
  units.flatMap((unit) => {
    const required = /^Instance does not have required property "(.*)"\.$/.exec(unit.error)
    if (unit.keyword === "required" && required)
      return [{ path: segment(pathOf(unit.instanceLocation), required[1]!), expected: "a required property, missing" }]
    if (unit.keyword === "false")
      return [{ path: pathOf(unit.instanceLocation), expected: "not a property this tool takes" }]
    if (WRAPPERS.has(unit.keyword)) return []
    return [{ path: pathOf(unit.instanceLocation), expected: unit.error }]
  })

export interface ArgumentMismatch {
  message: string
  /** each mismatch: where in the arguments, and what the schema expected there */
  errors: { path: string; expected: string }[]
}

/** The tool row a call is checked against: its id and sync time name its validator in the cache. */
export interface CheckedTool {
  id: string
  syncedAt: number
  inputSchema: unknown
}

export const createArgumentCheck = (logger: Logger) => {
  /** per tool row: its validator, or null once its schema proved unusable */
  const validators = new Map<string, Validator | null>()

  const keep = (key: string, validator: Validator | null) => {
    if (validators.size >= MAX_CACHED && !validators.has(key))
      validators.delete(validators.keys().next().value as string)
    validators.set(key, validator)
    return validator
  }

  /** once per row: later calls find null and go through unchecked */
  const unusable = (key: string, cause: unknown) => {
    logger.warn("a tool's input schema cannot be checked: its calls go through unchecked", {
      tool: key,
      error: cause instanceof Error ? cause.message.split("\n")[0] : String(cause),
    })
    return keep(key, null)
  }

  const validatorFor = (key: string, schema: unknown): Validator | null => {
    if (validators.has(key)) return validators.get(key)!
    try {
      return keep(key, new Validator(looser(schema) as object, "2020-12", false))
    } catch (cause) {
      return unusable(key, cause)
    }
  }

  /** null when the arguments fit the schema (or cannot be checked); else what does not fit */
  return (
    { id, syncedAt, inputSchema: schema }: CheckedTool,
    path: string,
    args: Record<string, unknown>,
  ): ArgumentMismatch | null => {
    if (typeof schema !== "object" || schema === null || Object.keys(schema).length === 0) return null
    const key = `${id}@${syncedAt}`
    const validator = validatorFor(key, schema)
    if (!validator) return null
    if ((JSON.stringify(args)?.length ?? 0) > MAX_CHECKED_ARG_CHARS) return null
    let result: ReturnType<Validator["validate"]>
    try {
      result = validator.validate(args)
    } catch (cause) {
      // an unresolvable $ref shows only now
      unusable(key, cause)
      return null
    }
    if (result.valid) return null
    const found = mismatchesOf(result.errors)
    const errors = (found.length > 0 ? found : [{ path: "args", expected: "does not match the schema" }]).slice(
      0,
      MAX_NAMED,
    )
    const list = errors.map((error) => `${error.path}: ${error.expected}`).join("; ")
    return { message: `arguments to "${path}" do not fit its input schema: ${list}`, errors }
  }
}

export type ArgumentCheck = ReturnType<typeof createArgumentCheck>
