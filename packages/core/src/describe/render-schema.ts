/**
 * JSON Schema -> a TypeScript type, for the schemas real MCP servers send (draft-07 and 2020-12, pydantic and
 * zod output, OpenAPI's `nullable`). What it cannot render becomes `unknown`; it never throws for any input.
 *
 * Not supported, rendered as `unknown` (or ignored where ignoring only widens the type): remote and `$anchor`
 * refs, `not`, `if`/`then`/`else`, `dependentSchemas`, `$dynamicRef`. Validation keywords (`format`,
 * `minimum`, `pattern`...) have no TypeScript form and are dropped.
 */
import {
  type TypeText,
  arrayOf,
  atom,
  docComment,
  indentOf,
  intersectionText,
  propertyKey,
  unionText,
} from "../shapes/ts-syntax.js"
import { definitionKey } from "./def-key.js"
import { isRecord, own } from "../is-record.js"
import { isDefinitionPointer, parseLocalRef, pointerOf, resolveSegments } from "./json-pointer.js"
import { type TypeScope, pascalCase, uniqueName } from "./type-scope.js"

/** Schema nodes rendered per call, and nesting levels: past either, `unknown`. */
const MAX_NODES = 4000
const MAX_DEPTH = 40
/** An enum longer than this renders as the types of its members. */
const MAX_ENUM = 100
/** An index signature type longer than this is written `unknown`. */
const MAX_INDEX_TEXT = 200

export interface RenderSchemaOptions {
  scope: TypeScope
  /** the alias the schema's root is declared under, so `$ref: "#"` can name it; without it, such a ref is `unknown` */
  rootName?: string
  /** put before every alias made from a definition, e.g. `Everything_` */
  namePrefix?: string
}

export interface RenderedSchema {
  type: TypeText
  /** aliases in the scope the type refers to (their own references are in the scope) */
  uses: Set<string>
}

interface Context {
  root: unknown
  scope: TypeScope
  rootName: string | undefined
  prefix: string
  budget: number
  /** definition pointer -> alias, for this root */
  defNames: Map<string, string>
  /** non-definition pointers being inlined: a second visit is a cycle */
  inlining: Set<string>
}

/**
 * Where a node sits. `chain` holds the aliases (as pointers, `#` for the root) the node is directly inside,
 * not under a property, an item or an index signature: a reference back to one of them there would be a
 * circular alias (`type A = B | string; type B = A`), which TypeScript rejects, so it renders as `unknown`.
 */
interface Frame {
  chain: ReadonlySet<string>
  depth: number
  level: number
  uses: Set<string>
}

const UNKNOWN = atom("unknown")
const NO_CHAIN: ReadonlySet<string> = new Set()

export const renderSchema = (schema: unknown, options: RenderSchemaOptions): RenderedSchema => {
  const { scope } = options
  const snapshot = {
    taken: new Set(scope.taken),
    byKey: new Map(scope.byKey),
    declarations: new Map(scope.declarations),
  }
  const ctx: Context = {
    root: schema,
    scope,
    rootName: options.rootName,
    prefix: options.namePrefix ?? "",
    budget: MAX_NODES,
    defNames: new Map(),
    inlining: new Set(),
  }
  const uses = new Set<string>()
  try {
    const type = render(schema, ctx, { chain: new Set(options.rootName ? ["#"] : []), depth: 0, level: 0, uses })
    return { type, uses }
  } catch {
    // Never reached for JSON input; if it is, leave the scope as it was so no alias is left undeclared.
    restore(scope.taken, snapshot.taken)
    restore(scope.byKey, snapshot.byKey)
    restore(scope.declarations, snapshot.declarations)
    return { type: UNKNOWN, uses: new Set() }
  }
}

const restore = <K, V>(target: Set<K> | Map<K, V>, saved: Set<K> | Map<K, V>) => {
  target.clear()
  if (target instanceof Set) for (const k of saved as Set<K>) target.add(k)
  else for (const [k, v] of saved as Map<K, V>) (target as Map<K, V>).set(k, v)
}

const direct = (frame: Frame): Frame => ({ ...frame, depth: frame.depth + 1 })
const nested = (frame: Frame): Frame => ({
  chain: NO_CHAIN,
  depth: frame.depth + 1,
  level: frame.level + 1,
  uses: frame.uses,
})

const render = (schema: unknown, ctx: Context, frame: Frame): TypeText => {
  if (--ctx.budget < 0 || frame.depth > MAX_DEPTH) return UNKNOWN
  if (schema === true) return UNKNOWN
  if (schema === false) return atom("never")
  if (!isRecord(schema)) return UNKNOWN
  const ref = own(schema, "$ref")
  if (typeof ref === "string") return withNullable(schema, renderRef(ref, ctx, frame))

  const parts: TypeText[] = []
  const base = renderBase(schema, ctx, frame)
  if (base) parts.push(base)
  for (const keyword of ["anyOf", "oneOf"]) {
    const members = own(schema, keyword)
    if (Array.isArray(members) && members.length > 0)
      parts.push(unionText(members.map((m) => render(m, ctx, direct(frame)))))
  }
  const allOf = own(schema, "allOf")
  if (Array.isArray(allOf)) for (const member of allOf) parts.push(render(member, ctx, direct(frame)))
  return withNullable(schema, intersectionText(parts))
}

/** OpenAPI 3.0's `nullable: true`. */
const withNullable = (schema: Record<string, unknown>, type: TypeText): TypeText =>
  own(schema, "nullable") === true ? unionText([type, atom("null")]) : type

const renderBase = (schema: Record<string, unknown>, ctx: Context, frame: Frame): TypeText | null => {
  if (Object.hasOwn(schema, "const")) return literal(own(schema, "const"))
  const values = own(schema, "enum")
  if (Array.isArray(values) && values.length > 0) {
    if (values.length <= MAX_ENUM) return unionText(values.map(literal))
    return unionText(
      [...new Set(values.map((v) => (v === null ? "null" : typeof v)))].map((t) =>
        t === "string" || t === "number" || t === "boolean" || t === "null" ? atom(t) : UNKNOWN,
      ),
    )
  }
  const types = typesOf(schema)
  if (types.length === 0) return null
  return unionText(types.map((type) => renderType(type, schema, ctx, frame)))
}

const typesOf = (schema: Record<string, unknown>): unknown[] => {
  const type = own(schema, "type")
  if (typeof type === "string") return [type]
  if (Array.isArray(type)) return type
  if (["properties", "additionalProperties", "patternProperties"].some((k) => Object.hasOwn(schema, k)))
    return ["object"]
  if (["items", "prefixItems"].some((k) => Object.hasOwn(schema, k))) return ["array"]
  return []
}

const renderType = (type: unknown, schema: Record<string, unknown>, ctx: Context, frame: Frame): TypeText => {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
    case "number":
      return atom(type)
    case "integer":
      return atom("number")
    case "object":
      return renderObject(schema, ctx, frame)
    case "array":
      return renderArray(schema, ctx, frame)
    default:
      return UNKNOWN
  }
}

const literal = (value: unknown): TypeText => {
  if (typeof value === "string" || typeof value === "boolean" || value === null) return atom(JSON.stringify(value))
  if (typeof value === "number" && Number.isFinite(value)) return atom(JSON.stringify(value))
  return UNKNOWN // an object or array literal has no TypeScript literal type
}

const renderObject = (schema: Record<string, unknown>, ctx: Context, frame: Frame): TypeText => {
  const properties = own(schema, "properties")
  const requiredList = own(schema, "required")
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((r) => typeof r === "string") : [])
  const pad = indentOf(frame.level + 1)
  const lines: string[] = []
  const propertyTypes: TypeText[] = []
  let anyOptional = false
  if (isRecord(properties)) {
    for (const key of Object.keys(properties)) {
      const property = properties[key]
      const type = render(property, ctx, nested(frame))
      const optional = !required.has(key)
      anyOptional ||= optional
      propertyTypes.push(type)
      lines.push(`${docFor(property, pad)}${pad}${propertyKey(key)}${optional ? "?" : ""}: ${type.text}`)
    }
  }
  const extra: TypeText[] = []
  const additional = own(schema, "additionalProperties")
  if (additional !== undefined && additional !== false) extra.push(render(additional, ctx, nested(frame)))
  const patterns = own(schema, "patternProperties")
  if (isRecord(patterns)) for (const key of Object.keys(patterns)) extra.push(render(patterns[key], ctx, nested(frame)))

  if (lines.length === 0) {
    // An index signature, not `Record<string, T>`: `type A = Record<string, A>` is a circular alias, this is not.
    if (extra.length > 0) {
      const values = unionText(extra).text
      return atom(
        values.includes("\n")
          ? `{\n${pad}[key: string]: ${values}\n${indentOf(frame.level)}}`
          : `{ [key: string]: ${values} }`,
      )
    }
    return atom(additional === false ? "Record<string, never>" : "Record<string, unknown>")
  }
  if (extra.length > 0) {
    // An index signature must admit every declared property's type too.
    let index = unionText([...extra, ...propertyTypes, ...(anyOptional ? [atom("undefined")] : [])])
    if (index.text.length > MAX_INDEX_TEXT || index.text.includes("\n")) index = UNKNOWN
    lines.push(`${pad}[key: string]: ${index.text}`)
  }
  return atom(`{\n${lines.join("\n")}\n${indentOf(frame.level)}}`)
}

const renderArray = (schema: Record<string, unknown>, ctx: Context, frame: Frame): TypeText => {
  const prefixItems = own(schema, "prefixItems")
  const items = own(schema, "items")
  // 2020-12 tuples: prefixItems + items as the rest; draft-07 tuples: items as an array + additionalItems.
  const tuple = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : null
  if (!tuple) return arrayOf(items === undefined ? UNKNOWN : render(items, ctx, nested(frame)))
  const rest = Array.isArray(prefixItems) ? items : own(schema, "additionalItems")
  const minItems = own(schema, "minItems")
  const maxItems = own(schema, "maxItems")
  const min = typeof minItems === "number" ? minItems : 0
  const elements = tuple.map((element, i) => `${render(element, ctx, nested(frame)).text}${i >= min ? "?" : ""}`)
  const closed = rest === false || (rest === undefined && typeof maxItems === "number" && maxItems <= tuple.length)
  if (!closed) elements.push(`...${arrayOf(rest === undefined ? UNKNOWN : render(rest, ctx, nested(frame))).text}`)
  return atom(`[${elements.join(", ")}]`)
}

const renderRef = (ref: string, ctx: Context, frame: Frame): TypeText => {
  const segments = parseLocalRef(ref)
  if (!segments) return UNKNOWN // remote or `$anchor` reference
  if (segments.length === 0) return ctx.rootName && !frame.chain.has("#") ? atom(ctx.rootName) : UNKNOWN
  const pointer = pointerOf(segments)
  const target = resolveSegments(ctx.root, segments)
  if (target === undefined) return UNKNOWN
  if (isDefinitionPointer(segments)) return renderDefinition(pointer, segments[1] as string, target, ctx, frame)
  if (ctx.inlining.has(pointer)) return UNKNOWN
  ctx.inlining.add(pointer)
  const type = render(target, ctx, direct(frame))
  ctx.inlining.delete(pointer)
  return type
}

const renderDefinition = (pointer: string, name: string, target: unknown, ctx: Context, frame: Frame): TypeText => {
  if (frame.chain.has(pointer)) return UNKNOWN
  let alias = ctx.defNames.get(pointer)
  if (alias === undefined) {
    const key = definitionKey(ctx.root, name, target, ctx.prefix, ctx.rootName)
    alias = ctx.scope.byKey.get(key)
    if (alias === undefined) {
      alias = uniqueName(ctx.scope, `${ctx.prefix}${pascalCase(name) || "Def"}`)
      ctx.scope.byKey.set(key, alias)
      ctx.defNames.set(pointer, alias)
      const uses = new Set<string>()
      const body = render(target, ctx, {
        chain: new Set([...frame.chain, pointer]),
        depth: frame.depth + 1,
        level: 0,
        uses,
      })
      ctx.scope.declarations.set(alias, { text: `${docFor(target, "")}type ${alias} = ${body.text}`, uses: [...uses] })
    }
    ctx.defNames.set(pointer, alias)
  }
  frame.uses.add(alias)
  return atom(alias)
}

/** The property's description, `@deprecated` and a short `@default`, as a doc comment. */
const docFor = (schema: unknown, pad: string): string => {
  if (!isRecord(schema)) return ""
  const lines: string[] = []
  const description = own(schema, "description")
  if (typeof description === "string" && description.trim()) lines.push(description.trim())
  if (own(schema, "deprecated") === true) lines.push("@deprecated")
  if (Object.hasOwn(schema, "default")) {
    const text = JSON.stringify(own(schema, "default"))
    if (text !== undefined && text.length <= 80) lines.push(`@default ${text}`)
  }
  return lines.length > 0 ? docComment(lines.join("\n"), pad) : ""
}
