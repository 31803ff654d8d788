/**
 * An operation's request body -> arguments. JSON is preferred, then a form, then multipart, then whatever the spec
 * lists first. An object body's properties become arguments beside the parameters, unless one of them has a
 * parameter's name (or the body is not a plain object): then the whole body is the argument `body`.
 */
import { isRecord, own } from "@switchboard/core"
import type { BodyBinding } from "../binding.js"
import { deref } from "../spec/refs.js"
import { SpecProblem, at } from "../spec/spec-problem.js"
import type { SchemaConverter } from "../spec/to-json-schema.js"

export const isJsonMediaType = (type: string) => /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i.test(type.trim())
const FORM = "application/x-www-form-urlencoded"
const MULTIPART = "multipart/form-data"

const pickMediaType = (types: string[]) =>
  types.find(isJsonMediaType) ??
  types.find((t) => t.toLowerCase().startsWith(FORM)) ??
  types.find((t) => t.toLowerCase().startsWith(MULTIPART)) ??
  types[0]

/** A body sent as it is: a string, or bytes as `{ base64, contentType? }`. */
const RAW_BODY = {
  description: "the request body: text, or bytes as { base64, contentType? }",
  anyOf: [
    { type: "string" },
    {
      type: "object",
      properties: { base64: { type: "string" }, contentType: { type: "string" } },
      required: ["base64"],
    },
  ],
}

/** A file in a multipart body: text as it is, or bytes as `{ base64, contentType?, filename? }`. */
const FILE = {
  anyOf: [
    { type: "string" },
    {
      type: "object",
      properties: { base64: { type: "string" }, contentType: { type: "string" }, filename: { type: "string" } },
      required: ["base64"],
    },
  ],
}

const isBinaryString = (schema: unknown) =>
  isRecord(schema) && schema.type === "string" && (schema.format === "binary" || schema.format === "byte")

/** a multipart property that is a file (or a list of files), typed as what a script passes for one */
const asFileArgument = (schema: unknown): unknown => {
  if (isBinaryString(schema)) {
    const description = (schema as Record<string, unknown>).description
    return typeof description === "string" ? { ...FILE, description } : FILE
  }
  if (isRecord(schema) && schema.type === "array" && isBinaryString(schema.items)) return { ...schema, items: FILE }
  return schema
}

export interface DerivedBody {
  binding: BodyBinding
  properties: [arg: string, schema: unknown][]
  required: string[]
}

/** The plain object schema a body's properties can be spread from, or null. */
const spreadable = (doc: Record<string, unknown>, schema: unknown, where: string) => {
  const target = deref(doc, schema, where)
  if (!isRecord(target) || !isRecord(own(target, "properties"))) return null
  for (const key of ["allOf", "anyOf", "oneOf", "not", "if"]) if (own(target, key) !== undefined) return null
  const type = own(target, "type")
  if (type !== undefined && type !== "object") return null
  return target
}

export const deriveRequestBody = (
  doc: Record<string, unknown>,
  convert: SchemaConverter,
  requestBody: unknown,
  where: string,
  taken: ReadonlySet<string>,
): DerivedBody | null => {
  if (requestBody === undefined) return null
  const body = deref(doc, requestBody, where)
  if (!isRecord(body)) throw new SpecProblem(where, "requestBody must be an object")
  const content = own(body, "content")
  if (!isRecord(content) || Object.keys(content).length === 0) return null
  const mediaType = pickMediaType(Object.keys(content))!
  const media = own(content, mediaType)
  const schemaAt = at(at(at(where, "content"), mediaType), "schema")
  const schema = isRecord(media) ? own(media, "schema") : undefined
  const required = own(body, "required") === true
  const structured =
    isJsonMediaType(mediaType) || /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(mediaType)
  const wholeArg = taken.has("body") ? "requestBody" : "body"
  const whole = (converted: unknown): DerivedBody => ({
    binding: { mediaType, arg: wholeArg, required },
    properties: [[wholeArg, converted]],
    required: required ? [wholeArg] : [],
  })
  if (!structured) return whole(RAW_BODY)
  if (schema === undefined) return whole({})
  const object = spreadable(doc, schema, schemaAt)
  const names = object ? Object.keys(own(object, "properties") as Record<string, unknown>) : []
  if (!object || names.some((name) => taken.has(name))) return whole(convert.convert(schema, schemaAt))
  const props = own(object, "properties") as Record<string, unknown>
  const listed = own(object, "required")
  const requiredProps = Array.isArray(listed) ? listed.filter((n): n is string => typeof n === "string") : []
  return {
    binding: { mediaType, arg: null, properties: names, required },
    properties: names.map((name) => {
      const converted = convert.convert(props[name], at(at(schemaAt, "properties"), name))
      return [name, /^multipart\//i.test(mediaType) ? asFileArgument(converted) : converted]
    }),
    // a body that may be left out entirely has no required properties
    required: required ? requiredProps.filter((name) => names.includes(name)) : [],
  }
}
