/**
 * Reads `switchboard.config.json`: plain JSON (no comments, no trailing commas: editors read a .json file so),
 * `${NAME}` in any string replaced from the environment, then checked against config-schema.ts. Every problem is
 * one line naming the file, the line and column, and the field; an unknown field, with the known one it is
 * probably a misspelling of (./unknown-fields.ts). A variable's value is never printed: a message names the
 * variable only, and where a schema's message quotes a value, `${NAME}` stands in its place.
 */
import { readFileSync } from "node:fs"
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from "jsonc-parser"
import type { Node, ParseError } from "jsonc-parser"
import type { z } from "zod"
import { closestNames } from "@switchboard/core"
import { configFile, configJsonSchema } from "./config-schema.js"
import type { ConfigFile } from "./config-schema.js"
import { droppedFields, unknownFields } from "./unknown-fields.js"
import type { Path } from "./unknown-fields.js"

export const DEFAULT_CONFIG_PATH = "./switchboard.config.json"

/**
 * `variables`: the value of each `${NAME}` the file used, by name, so that what applying the file prints can put
 * `${NAME}` back in place of a value an upstream's error quoted (`hideVariables`).
 */
export type ConfigLoad =
  | { ok: true; config: ConfigFile; variables: ReadonlyMap<string, string> }
  | { ok: false; problems: string[] }

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** `sources[0].transport.url` */
const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    "",
  ) || "(the file)"

const lineAndColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset).split("\n")
  return { line: before.length, column: before[before.length - 1]!.length + 1 }
}

export const readConfigText = (file: string, text: string, env: NodeJS.ProcessEnv = process.env): ConfigLoad => {
  const at = (offset: number, field: string, message: string) => {
    const { line, column } = lineAndColumn(text, offset)
    return `${file}:${line}:${column}: ${field}: ${message}`
  }
  const syntax: ParseError[] = []
  const root = parseTree(text, syntax, { disallowComments: true, allowTrailingComma: false })
  if (syntax.length > 0 || !root)
    return {
      ok: false,
      problems: syntax.length
        ? syntax.map((e) => at(e.offset, "syntax", `${printParseErrorCode(e.error)} (the file must be plain JSON)`))
        : [at(0, "syntax", "the file is empty")],
    }

  /** The node of a field, or of the nearest enclosing one that exists (a missing field is reported at its object). */
  const nodeOf = (path: readonly PropertyKey[]): Node => {
    for (let n = path.length; n > 0; n--) {
      const node = findNodeAtLocation(root, path.slice(0, n) as Path)
      // a property's key, rather than its value, is where a person looks for the field
      if (node) return node.parent?.type === "property" ? node.parent : node
    }
    return root
  }

  const problems: string[] = []
  const substituted = new Map<string, string>()
  const substitute = (value: unknown, path: Path): unknown => {
    if (typeof value === "string")
      return value.replace(VARIABLE, (whole, name: string) => {
        const found = env[name]
        if (found !== undefined) {
          substituted.set(name, found)
          return found
        }
        problems.push(at(nodeOf(path).offset, fieldName(path), `environment variable ${name} is not set`))
        return whole
      })
    if (Array.isArray(value)) return value.map((item, index) => substitute(item, [...path, index]))
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, [...path, key])]))
    return value
  }
  const input = substitute(getNodeValue(root), [])
  if (problems.length > 0) return { ok: false, problems }

  const parsed = configFile.safeParse(input)
  // a source is a POST body, which ignores fields it does not know; in a file they are a typo, so they are errors
  const dropped = parsed.success ? droppedFields(input, parsed.data) : []
  if (parsed.success && dropped.length === 0) return { ok: true, config: parsed.data, variables: substituted }
  // the fields the schema does not know, each with the ones it knows there: found along its JSON Schema even when
  // the parse failed, which a misspelt required field makes it do
  const unknown = new Map(unknownFields(input, configJsonSchema()).map((field) => [fieldName(field.path), field]))
  const found = parsed.success
    ? dropped.map((path) => unknownField(path, unknown.get(fieldName(path))?.known ?? []))
    : [
        ...[...unknown.values()].map(({ path, known }) => unknownField(path, known)),
        // the rest of what the parse found (an unknown field the walk named already is named once)
        ...parsed.error.issues.flatMap((issue) => explain(issue, (path) => !unknown.has(fieldName(path)))),
      ]
  return { ok: false, problems: found.sort((a, b) => a.offset - b.offset).map((problem) => problem.text) }

  /**
   * A message of the schema's (ours, or a plugin's) may quote the value it refused: each variable's value is put
   * back as `${NAME}`. The message only: the line and column stay numbers.
   */
  function unsubstituted(message: string): string {
    return hideVariables(message, substituted)
  }

  function unknownField(path: Path, known: readonly string[]) {
    const key = String(path[path.length - 1])
    const [near] = closestNames(key, known, 1)
    const offset = nodeOf(path).offset
    return {
      offset,
      text: at(offset, fieldName(path), `unknown field "${key}"${near ? ` (did you mean "${near}"?)` : ""}`),
    }
  }

  /** an issue as problems; `report` says whether an unknown field is one to name here */
  function explain(issue: z.core.$ZodIssue, report: (path: Path) => boolean) {
    if (issue.code === "unrecognized_keys")
      return issue.keys
        .map((key) => [...issue.path, key] as Path)
        .filter(report)
        .map((path) => unknownField(path, []))
    const offset = nodeOf(issue.path).offset
    return [{ offset, text: at(offset, fieldName(issue.path), unsubstituted(issue.message)) }]
  }
}

/**
 * `text` with each variable's value put back as `${NAME}`: as written, as JSON writes it inside quotes, and
 * percent-encoded (as a URL carries it). Longest first, so a value inside another does not break it. Values shorter
 * than `minLength` are left (an empty one is nothing to hide; a message from a source would be shredded by
 * replacing every "80" in it).
 */
export const hideVariables = (text: string, variables: ReadonlyMap<string, string>, minLength = 1): string =>
  [...variables]
    .filter(([, value]) => value.length >= minLength)
    .flatMap(([name, value]) =>
      [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)].map((form) => [form, name] as const),
    )
    .sort(([a], [b]) => b.length - a.length)
    .reduce((hidden, [form, name]) => hidden.replaceAll(form, `\${${name}}`), text)

/** Reads and checks a file; a file that cannot be read is a problem like any other. */
export const loadConfigFile = (file: string, env: NodeJS.ProcessEnv = process.env): ConfigLoad => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (cause) {
    const code = (cause as { code?: string }).code
    return { ok: false, problems: [`${file}: ${code === "ENOENT" ? "no such file" : String(cause)}`] }
  }
  return readConfigText(file, text, env)
}
