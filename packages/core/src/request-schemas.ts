/**
 * The requests core validates, each defined once, in zod: the execute request (the HTTP body and the MCP
 * tool's arguments), the describe request (the HTTP body, the MCP tool, `tools.$describe` and `tools.$search`)
 * and the fields every source has. packages/api derives from these its request validation, the OpenAPI
 * document and the MCP tools' `inputSchema`. Each message names its field and what the field takes: it is the
 * text of the 400 a caller reads, and of the error a model corrects itself from.
 */
import { z } from "zod"
import { DEFAULT_DESCRIBE_LIMIT, MAX_DESCRIBE_FIELDS, MAX_DESCRIBE_TOOLS } from "./describe-bounds.js"
import { InvalidInput, failure, success } from "./errors.js"
import type { Outcome } from "./errors.js"
import { LIMIT_KEYS, defaultLimits, minimumLimits } from "./limits.js"
import type { RunLimits, SourcePlugin } from "./seams.js"

export interface WholeNumberRange {
  min: number
  max: number
}

const DIGITS = /^\d{1,16}$/

/**
 * A whole number in range, from JSON or from a query string's digits. Out of range is the caller's mistake (a
 * 400 naming the parameter and its range), never a 500 from deeper down: `?limit=1e20` once reached the SQL.
 */
export const wholeNumber = (name: string, { min, max }: WholeNumberRange) => {
  const error = (issue: { input?: unknown }) =>
    `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(issue.input)})`
  return z.preprocess(
    (raw) => (typeof raw === "string" && DIGITS.test(raw) ? Number(raw) : raw),
    z.int({ error }).min(min, { error }).max(max, { error }),
  ) as unknown as z.ZodType<number, number | string>
}

/**
 * A positive whole number of any size: a limit above the server's is capped, never refused. `multipleOf(1)`
 * rather than `int()`, whose safe-integer bound would refuse `1e20`.
 */
const count = (error: string, least = 1, tooSmall = error) =>
  z.number({ error }).multipleOf(1, { error }).min(least, { error: tooSmall }).meta({ type: "integer" })

const limitMeanings: Record<keyof RunLimits, string> = {
  timeoutMs: "wall-clock milliseconds for the whole run, tool calls included",
  memoryBytes: "the sandbox's heap, in bytes",
  stackBytes: "the sandbox's stack, in bytes",
  maxToolCalls: "tool calls in the run",
  maxResultBytes: "the result's size as JSON text, in bytes",
  maxResultNodes: "the keys and elements in the result, each counted once",
  maxLogLines: "console lines kept",
  maxLogBytes: "console bytes kept",
  maxToolArgBytes:
    "one tool call's path and arguments as UTF-8 JSON, in bytes; past it the call resolves to `tool_arguments_too_large`",
  maxToolArgBytesInFlight: "the same, summed over the calls whose result the script has not yet received",
}

const runLimit = (key: keyof RunLimits) => {
  const least = minimumLimits[key] ?? 1
  const error = `limit "${key}" must be a positive whole number`
  const tooSmall = `limit "${key}" must be at least ${least}: a smaller one cannot even compile a script`
  return count(error, least, least > 1 ? tooSmall : error)
    .optional()
    .describe(`${limitMeanings[key]} (server default ${defaultLimits[key]})`)
}

type RunLimitFields = { [K in keyof RunLimits]: ReturnType<typeof runLimit> }

export const runLimitsRequest = z
  .strictObject(Object.fromEntries(LIMIT_KEYS.map((key) => [key, runLimit(key)])) as RunLimitFields, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown limit ${issue.keys.map((key) => `"${key}"`).join(", ")}; limits are: ${LIMIT_KEYS.join(", ")}`
        : `"limits" must be an object with any of: ${LIMIT_KEYS.join(", ")}`,
  })
  .describe("lowers the server's limits for this run; a value above the server's is capped, never raised")

export const executeRequest = z.object(
  {
    code: z
      .string({ error: '"code" must be a string holding the script' })
      .describe("JavaScript or TypeScript: the body of an async function; `return` the result"),
    timeoutMs: count('"timeoutMs" must be a positive whole number of milliseconds')
      .optional()
      .describe("stop the script after this many milliseconds, at most the server's limit (limits.timeoutMs wins)"),
    limits: runLimitsRequest.optional(),
  },
  { error: 'the body must be a JSON object: {"code": "..."}' },
)

export type ExecuteRequest = z.output<typeof executeRequest>

const pathsError = `"paths" must be an array of 1 to ${MAX_DESCRIBE_TOOLS} tool paths`
const fieldsError = `"fields" must be an array of 1 to ${MAX_DESCRIBE_FIELDS} field paths, such as "user.login"`

export const describeRequest = z
  .object(
    {
      paths: z
        .array(z.string({ error: pathsError }), { error: pathsError })
        .min(1, { error: pathsError })
        .max(MAX_DESCRIBE_TOOLS, { error: pathsError })
        .optional()
        .describe('exact tool paths, such as ["github.search_issues"]'),
      query: z
        .string({ error: '"query" must be a string of words' })
        .optional()
        .describe("words to find in tool names, paths, argument names and descriptions"),
      limit: wholeNumber("limit", { min: 1, max: MAX_DESCRIBE_TOOLS })
        .optional()
        .describe(`with query: how many tools at most (default ${DEFAULT_DESCRIBE_LIMIT})`),
      fields: z
        .array(z.string({ error: fieldsError }).min(1, { error: fieldsError }), { error: fieldsError })
        .min(1, { error: fieldsError })
        .max(MAX_DESCRIBE_FIELDS, { error: fieldsError })
        .optional()
        .describe('declare only these fields of each data type, in full, e.g. ["head.sha"]'),
    },
    { error: 'the body must be a JSON object: {"paths": ["ns.tool"]} or {"query": "words"}' },
  )
  .describe("exact `paths`, or a `query` to search (used when paths is absent); with neither, the first tools")

export type DescribeRequest = z.output<typeof describeRequest>

export const NAMESPACE_PATTERN = /^[a-z][a-z0-9_]*$/

const namespaceField = z
  .string({ error: (issue) => `namespace must match ${NAMESPACE_PATTERN.source} (got ${JSON.stringify(issue.input)})` })
  .regex(NAMESPACE_PATTERN, {
    error: (issue) => `namespace must match ${NAMESPACE_PATTERN.source} (got ${JSON.stringify(issue.input)})`,
  })
  .describe("scripts call `tools.<namespace>.<tool>`")

/** The fields every source has, for the kinds this server's plugins handle; the rest is the kind's config. */
export const sourceFields = (kinds: readonly string[]) =>
  z.looseObject(
    {
      namespace: namespaceField,
      kind: z
        .string({ error: `kind must be a string, one of: ${kinds.join(", ")}` })
        .refine((kind) => kinds.includes(kind), {
          error: (issue) => `unknown source kind ${JSON.stringify(issue.input)}; known kinds: ${kinds.join(", ")}`,
        }),
    },
    { error: "the body must be a JSON object with namespace, kind and the source's config" },
  )

/** A kind of source as the API bodies need it: its name and the schemas of its own fields (SourcesService.kinds). */
export type SourceKind = Pick<SourcePlugin, "kind" | "configSchema" | "patchSchema">

/**
 * POST /v1/sources whole, as the OpenAPI document shows it: the fields every source has with each kind's own.
 * The service checks the same parts in turn (`sourceFields`, then the kind's `configSchema`).
 */
export const addSourceRequest = (kinds: readonly SourceKind[]) => {
  const each = kinds.map(({ kind, configSchema }) =>
    z.object({ namespace: namespaceField, kind: z.literal(kind), ...configSchema?.shape }),
  )
  const [first, ...rest] = each
  if (!first) return z.object({ namespace: namespaceField, kind: z.string() })
  // by kind, so a bad field is named within its own kind rather than as an "Invalid input" of the whole source
  return rest.length === 0 ? first : z.discriminatedUnion("kind", [first, ...rest])
}

/** PATCH /v1/sources/{namespace}, as the OpenAPI document shows it: any kind's patch (none: nothing is taken). */
export const updateSourceRequest = (kinds: readonly SourceKind[]) => {
  const each = kinds.flatMap(({ patchSchema }) => (patchSchema ? [patchSchema] : []))
  if (each.length === 0) return z.never()
  return each.length === 1 ? each[0]! : z.union(each)
}

const english = z.locales.en().localeError

/** zod's own English message, led by the field's path, for a field whose schema has no message of its own. */
const namedDefault = (issue: z.core.$ZodRawIssue) => {
  if (!issue.path?.length) return undefined
  const plain = english(issue)
  const message = typeof plain === "string" ? plain : plain?.message
  return `"${issue.path.join(".")}": ${message}`
}

/** Every distinct message of a failed parse, in order, in one line. */
export const issueMessages = (error: z.ZodError) => [...new Set(error.issues.map((issue) => issue.message))].join("; ")

/** A request checked against its schema: the parsed value, or `InvalidInput` (HTTP 400) saying what is wrong. */
export const parseRequest = <S extends z.ZodType>(schema: S, input: unknown): Outcome<z.output<S>> => {
  const parsed = schema.safeParse(input)
  if (parsed.success) return success(parsed.data)
  // Parsed again for its messages: any per-parse option turns off zod's compiled validator, making each parse
  // many times slower, so only a request that fails pays for naming its fields.
  const explained = schema.safeParse(input, { error: namedDefault })
  return failure(
    new InvalidInput({ message: explained.success ? issueMessages(parsed.error) : issueMessages(explained.error) }),
  )
}
