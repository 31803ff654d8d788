/**
 * A spec's text -> its document. JSON goes to the engine's own parser (13 MB of GitHub's spec in ~50 ms); anything
 * else is YAML, read by js-yaml, which is pure JavaScript and runs on Workers (GitHub's spec as YAML: ~0.5 s and
 * ~105 MB of heap at its peak, where `yaml` took ~2.6 s and ~340 MB). OpenAPI 3.0 and 3.1 are read; Swagger 2.0 is
 * converted to OpenAPI 3.0 first (@scalar/openapi-upgrader: `host`, `basePath` and `schemes` become a server, body and
 * form parameters a request body, `definitions` component schemas, `securityDefinitions` security schemes).
 */
import { upgradeFromTwoToThree } from "@scalar/openapi-upgrader/2.0-to-3.0"
import { load } from "js-yaml"
import { isRecord } from "@switchboard/core"
import { SpecProblem } from "./spec-problem.js"

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths?: unknown }

const firstChar = (text: string) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // whitespace and a byte-order mark
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0xfeff) return text[i]
  }
  return undefined
}

const parseText = (text: string, origin: string): unknown => {
  if (firstChar(text) === undefined) throw new SpecProblem(origin, "the spec is empty")
  if (firstChar(text) === "{") {
    try {
      return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
    } catch (cause) {
      throw new SpecProblem(origin, `the spec is not valid JSON: ${(cause as Error).message}`)
    }
  }
  try {
    return load(text, { filename: origin })
  } catch (cause) {
    const reason = (cause as { reason?: unknown }).reason
    const mark = (cause as { mark?: { line?: number; column?: number } }).mark
    const place = mark?.line !== undefined ? ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}` : ""
    throw new SpecProblem(
      origin,
      `the spec is neither JSON nor YAML: ${typeof reason === "string" ? reason : "it does not parse"}${place}`,
    )
  }
}

/** A document a spec refers to (`$ref: ./schemas.yaml#/Pet`): JSON or YAML, any value. */
export const parseDocument = (text: string, origin: string): unknown => parseText(text, origin)

/** The document, checked to be OpenAPI 3.0 or 3.1. `origin` names the spec in messages (its URL, or `spec.inline`). */
export const parseSpec = (text: string, origin: string): OpenApiDocument => {
  const doc = parseText(text, origin)
  if (!isRecord(doc))
    throw new SpecProblem(origin, "the spec is neither JSON nor YAML describing an object (an OpenAPI document)")
  if (doc.swagger !== undefined) return fromSwagger2(doc, origin)
  return checked(doc, origin)
}

const fromSwagger2 = (doc: Record<string, unknown>, origin: string): OpenApiDocument => {
  if (doc.swagger !== "2.0")
    throw new SpecProblem(`${origin} swagger`, `Swagger ${String(doc.swagger)} is not supported (2.0 is)`)
  let upgraded: unknown
  try {
    upgraded = upgradeFromTwoToThree(doc as never)
  } catch (cause) {
    throw new SpecProblem(
      origin,
      `the Swagger 2.0 document could not be converted to OpenAPI 3: ${(cause as Error).message}`,
    )
  }
  if (!isRecord(upgraded)) throw new SpecProblem(origin, "the Swagger 2.0 document could not be converted to OpenAPI 3")
  return checked(upgraded, origin)
}

const checked = (doc: Record<string, unknown>, origin: string): OpenApiDocument => {
  const version = doc.openapi
  if (typeof version !== "string")
    throw new SpecProblem(origin, 'the document has no "openapi" version field: it is not an OpenAPI document')
  if (!/^3\.[01]\./.test(version))
    throw new SpecProblem(`${origin} openapi`, `OpenAPI ${version} is not supported (3.0.x and 3.1.x are)`)
  if (doc.paths !== undefined && !isRecord(doc.paths)) throw new SpecProblem("paths", "must be an object")
  return doc as OpenApiDocument
}
