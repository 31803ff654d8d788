/**
 * Checks real HTTP exchanges against an OpenAPI document with a JSON Schema validator (ajv, draft 2020-12 as
 * OpenAPI 3.1 uses): the route and its status are documented, an answer's body fits the schema documented for
 * its status and content type, and a request the server accepted fits the documented body and query
 * parameters. A schema that disagrees with what the server takes or sends gives a problem naming the route.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import type { ValidateFunction } from "ajv/dist/2020.js"

export interface Exchange {
  method: string
  /** the path as requested, without its query string */
  path: string
  query: Record<string, string>
  requestBody?: unknown
  status: number
  /** the answer's media type, without parameters; null for an empty answer */
  mediaType: string | null
  responseBody?: unknown
}

interface Operation {
  requestBody?: { content: Record<string, { schema: object }> }
  parameters?: { name: string; in: string; schema: object }[]
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>
  components: { responses: Record<string, { content?: Record<string, { schema: object }> }> }
}

const DOCUMENT_ID = "openapi.json"

/** `#/components/...` inside the document, as a reference from a schema compiled on its own. */
const anchored = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(anchored)
  if (typeof schema !== "object" || schema === null) return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && value.startsWith("#/") ? DOCUMENT_ID + value : anchored(value),
    ]),
  )
}

const templateOf = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`)

export const createConformance = (document: OpenApi) => {
  // formats are documentation here (uri, date-time); query values are text, so their types are coerced
  const strict = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  const coercing = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, coerceTypes: true })
  strict.addSchema(document, DOCUMENT_ID)
  coercing.addSchema(document, DOCUMENT_ID)
  const compiled = new Map<string, ValidateFunction>()
  const validator = (ajv: Ajv2020, schema: object) => {
    const key = `${ajv === strict ? "s" : "c"}${JSON.stringify(schema)}`
    let validate = compiled.get(key)
    if (!validate) compiled.set(key, (validate = ajv.compile(anchored(schema) as object)))
    return validate
  }
  const templates = Object.keys(document.paths).map((path) => ({ path, pattern: templateOf(path) }))

  const operationOf = (method: string, path: string) => {
    const template = templates.find((t) => t.pattern.test(path))?.path
    const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined
    return operation ? { template: template!, operation } : null
  }

  /** The problems with one exchange; none when the document describes it. */
  const check = (exchange: Exchange): string[] => {
    const route = `${exchange.method} ${exchange.path} → ${exchange.status}`
    const found = operationOf(exchange.method, exchange.path)
    if (!found) return [`${route}: no operation in the document`]
    const problems: string[] = []
    const fits = (ajv: Ajv2020, schema: object, value: unknown, what: string) => {
      const validate = validator(ajv, schema)
      if (!validate(value)) problems.push(`${route}: ${what} does not fit: ${ajv.errorsText(validate.errors)}`)
    }
    const { operation } = found
    let answer = operation.responses[String(exchange.status)]
    if (answer?.$ref) answer = document.components.responses[answer.$ref.split("/").pop()!]
    if (!answer) problems.push(`${route}: status not documented`)
    else if (exchange.mediaType !== null) {
      const content = answer.content?.[exchange.mediaType]
      if (!content) problems.push(`${route}: ${exchange.mediaType} not documented for this status`)
      else if (exchange.mediaType === "application/json") fits(strict, content.schema, exchange.responseBody, "answer")
    }
    if (exchange.status < 300) {
      const body = operation.requestBody?.content["application/json"]
      if (exchange.requestBody !== undefined && !body)
        problems.push(`${route}: a body was taken but none is documented`)
      if (exchange.requestBody !== undefined && body) fits(strict, body.schema, exchange.requestBody, "request body")
      for (const [name, value] of Object.entries(exchange.query)) {
        const parameter = operation.parameters?.find((p) => p.in === "query" && p.name === name)
        if (!parameter) problems.push(`${route}: query parameter ${name} not documented`)
        // coercion rewrites the value in place, so it is checked inside an object of its own
        else fits(coercing, { properties: { value: parameter.schema } }, { value }, `query parameter ${name}`)
      }
    }
    return problems
  }

  return { check, operationOf }
}
