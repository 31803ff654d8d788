/**
 * An OpenAPI schema -> JSON Schema (2020-12) for the catalog, lazily: a reference to a component schema
 * (`#/components/schemas/User`) becomes `#/$defs/User` and the component is converted once, when first reached, into
 * the source's shared definitions (stored once, not copied into each tool row). Any other local reference is written
 * out in place, a cycle through such references as `{}`. OpenAPI 3.0's dialect is brought to JSON Schema's:
 * `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, and the keywords
 * that describe no value (`example`, `xml`, `externalDocs`, `discriminator`) are left out.
 */
import { isRecord, own } from "@switchboard/core"
import { pointerSegments, resolveRef } from "./refs.js"
import { SpecProblem, at } from "./spec-problem.js"

const COMPONENT_SCHEMAS = ["components", "schemas"]
/** deeper than this a schema is `{}`: nothing a model reads needs more */
const MAX_DEPTH = 96

const DROPPED = new Set(["example", "xml", "externalDocs", "discriminator", "nullable"])
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"])
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"])
const SCHEMA_VALUES = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
])

export interface SchemaConverter {
  /** `schema` found at `where`, as JSON Schema whose component references point into the shared definitions */
  convert(schema: unknown, where: string): unknown
  /** the component schemas reached so far, converted; each one's own references are reached as it converts */
  definitions(): Record<string, unknown>
  /** a component schema by name, for a request body whose properties become arguments */
  component(name: string): unknown
}

export const definitionRef = (name: string) => `#/$defs/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`

/** `target[key] = value`, as an own data property even for `__proto__` (a property name in a spec is data). */
export const put = (target: Record<string, unknown>, key: string, value: unknown) => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

export const createSchemaConverter = (doc: Record<string, unknown>, openapi30: boolean): SchemaConverter => {
  const defs: Record<string, unknown> = {}
  const pending: string[] = []
  const queued = new Set<string>()
  /** non-component references being written out, to stop at a cycle */
  const inlining = new Set<string>()
  const components = isRecord(doc.components) ? own(doc.components, "schemas") : undefined

  const componentNamed = (name: string, ref: string, where: string): unknown => {
    const found = isRecord(components) ? own(components, name) : undefined
    if (found === undefined) throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} points at nothing`)
    return found
  }

  const reference = (ref: string, where: string, depth: number): unknown => {
    const segments = pointerSegments(ref)
    if (!segments)
      throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} points outside the document, which is not supported`)
    if (segments.length >= 3 && segments[0] === COMPONENT_SCHEMAS[0] && segments[1] === COMPONENT_SCHEMAS[1]) {
      const name = segments[2]!
      componentNamed(name, ref, where)
      if (segments.length > 3) resolveRef(doc, ref, where)
      if (!queued.has(name)) {
        queued.add(name)
        pending.push(name)
      }
      const rest = segments.slice(3).map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`)
      return { $ref: `${definitionRef(name)}${rest.join("")}` }
    }
    const target = resolveRef(doc, ref, where)
    if (inlining.has(ref)) return {}
    inlining.add(ref)
    try {
      return walk(target, where, depth + 1)
    } finally {
      inlining.delete(ref)
    }
  }
  const nullable = (out: Record<string, unknown>): Record<string, unknown> => {
    const type = out.type
    if (typeof type === "string") out.type = [type, "null"]
    else if (Array.isArray(type)) out.type = type.includes("null") ? type : [...type, "null"]
    else return { anyOf: [out, { type: "null" }] }
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    return out
  }

  const walk = (schema: unknown, where: string, depth: number): unknown => {
    if (typeof schema === "boolean") return schema
    if (!isRecord(schema) || depth > MAX_DEPTH) return {}
    const ref = own(schema, "$ref")
    if (typeof ref === "string") {
      const target = reference(ref, where, depth)
      // 3.0 ignores a Reference Object's siblings; a description beside it is still worth keeping
      const description = own(schema, "description")
      if (openapi30 || !isRecord(target))
        return typeof description === "string" && isRecord(target) ? { ...target, description } : target
      const rest = walk({ ...schema, $ref: undefined }, where, depth)
      return isRecord(rest) && Object.keys(rest).length > 0 ? { ...rest, ...target } : target
    }
    let out: Record<string, unknown> = {}
    for (const key of Object.keys(schema)) {
      const value = schema[key]
      if (value === undefined || DROPPED.has(key)) continue
      if (SCHEMA_MAPS.has(key) && isRecord(value)) {
        const map: Record<string, unknown> = {}
        for (const name of Object.keys(value)) put(map, name, walk(value[name], at(at(where, key), name), depth + 1))
        out[key] = map
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.map((item, index) => walk(item, at(at(where, key), index), depth + 1))
      } else if (SCHEMA_VALUES.has(key) && (isRecord(value) || typeof value === "boolean")) {
        out[key] = walk(value, at(where, key), depth + 1)
      } else if (key === "items" && Array.isArray(value)) {
        out.prefixItems = value.map((item, index) => walk(item, at(at(where, key), index), depth + 1))
      } else put(out, key, value)
    }
    if (openapi30) {
      for (const [flag, bound] of [
        ["exclusiveMinimum", "minimum"],
        ["exclusiveMaximum", "maximum"],
      ] as const) {
        if (typeof out[flag] !== "boolean") continue
        if (out[flag] === true && typeof out[bound] === "number") {
          out[flag] = out[bound]
          delete out[bound]
        } else delete out[flag]
      }
      if (out.type === "file") out.type = "string"
      if (own(schema, "nullable") === true) out = nullable(out)
    }
    return out
  }

  return {
    convert: (schema, where) => walk(schema, where, 0),
    definitions() {
      while (pending.length > 0) {
        const name = pending.shift()!
        const where = at("components.schemas", name)
        defs[name] = walk(componentNamed(name, `#/components/schemas/${name}`, where), where, 0)
      }
      return defs
    },
    component: (name) => (isRecord(components) ? own(components, name) : undefined),
  }
}
