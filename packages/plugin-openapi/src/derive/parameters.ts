/**
 * An operation's parameters (its path item's, then its own, which replace a path item's of the same name and
 * location) -> argument properties and their bindings. Two parameters with one name in one location are a spec
 * error, named by place; the same name in two locations is legal, and the later one's argument is `<in>_<name>`.
 * `Accept`, `Content-Type` and `Authorization` header parameters are ignored, as OpenAPI says.
 */
import { isRecord, own } from "@switchboard/core"
import type { ParameterBinding, ParameterLocation } from "../binding.js"
import { deref } from "../spec/refs.js"
import { SpecProblem, at } from "../spec/spec-problem.js"
import type { SchemaConverter } from "../spec/to-json-schema.js"

const LOCATIONS = new Set<string>(["path", "query", "header", "cookie"])
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"])
const DEFAULT_STYLE: Record<ParameterLocation, string> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
}

interface Declared {
  param: Record<string, unknown>
  where: string
}

export interface DerivedParameters {
  bindings: ParameterBinding[]
  properties: [arg: string, schema: unknown][]
  required: string[]
}

const declaredIn = (doc: Record<string, unknown>, list: unknown, where: string): Declared[] => {
  if (list === undefined) return []
  if (!Array.isArray(list)) throw new SpecProblem(where, "parameters must be an array")
  const seen = new Map<string, string>()
  return list.map((entry, index) => {
    const place = at(where, index)
    const param = deref(doc, entry, place)
    if (!isRecord(param)) throw new SpecProblem(place, "a parameter must be an object")
    const name = own(param, "name")
    const location = own(param, "in")
    if (typeof name !== "string" || name === "") throw new SpecProblem(place, "a parameter needs a name")
    if (typeof location !== "string" || !LOCATIONS.has(location))
      throw new SpecProblem(place, `parameter "${name}" has no valid "in" (path, query, header or cookie)`)
    const key = `${location}:${name}`
    const earlier = seen.get(key)
    if (earlier !== undefined)
      throw new SpecProblem(place, `parameter "${name}" in ${location} is declared twice (also at ${earlier})`)
    seen.set(key, place)
    return { param, where: place }
  })
}

const schemaOf = (param: Record<string, unknown>, convert: SchemaConverter, where: string) => {
  const content = own(param, "content")
  if (isRecord(content)) {
    const [mediaType, media] = Object.entries(content)[0] ?? []
    const schema = isRecord(media) ? own(media, "schema") : undefined
    return {
      schema: schema === undefined ? {} : convert.convert(schema, at(at(at(where, "content"), mediaType!), "schema")),
      json: mediaType !== undefined && /json/i.test(mediaType),
    }
  }
  const schema = own(param, "schema")
  return { schema: schema === undefined ? {} : convert.convert(schema, at(where, "schema")), json: false }
}

export const deriveParameters = (
  doc: Record<string, unknown>,
  convert: SchemaConverter,
  pathLevel: { list: unknown; where: string },
  operationLevel: { list: unknown; where: string },
): DerivedParameters => {
  const merged = new Map<string, Declared>()
  for (const declared of [
    ...declaredIn(doc, pathLevel.list, pathLevel.where),
    ...declaredIn(doc, operationLevel.list, operationLevel.where),
  ])
    merged.set(`${declared.param.in}:${declared.param.name}`, declared)

  const result: DerivedParameters = { bindings: [], properties: [], required: [] }
  const taken = new Set<string>()
  for (const { param, where } of merged.values()) {
    const name = param.name as string
    const location = param.in as ParameterLocation
    if (location === "header" && IGNORED_HEADERS.has(name.toLowerCase())) continue
    const arg = taken.has(name) ? `${location}_${name}` : name
    if (taken.has(arg))
      throw new SpecProblem(where, `parameter "${name}" in ${location} collides with argument "${arg}"`)
    taken.add(arg)
    const style = typeof param.style === "string" ? param.style : DEFAULT_STYLE[location]
    const explode = typeof param.explode === "boolean" ? param.explode : style === "form"
    const { schema, json } = schemaOf(param, convert, where)
    const description = own(param, "description")
    const deprecated = own(param, "deprecated") === true
    const text = [typeof description === "string" ? description : "", deprecated ? "(deprecated)" : ""]
      .filter(Boolean)
      .join(" ")
    result.properties.push([arg, text && isRecord(schema) ? { ...schema, description: text } : schema])
    if (location === "path" || own(param, "required") === true) result.required.push(arg)
    result.bindings.push({
      name,
      in: location,
      arg,
      style,
      explode,
      ...(own(param, "allowReserved") === true ? { allowReserved: true } : {}),
      ...(json ? { json: true } : {}),
    })
  }
  return result
}
