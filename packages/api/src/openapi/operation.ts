/**
 * One route's OpenAPI operation, written from its RouteSpec: its parameters, its body and answers by component
 * name, its error answers (the handler's, and those the app gives before any handler runs), and its `security`
 * from the scope it needs.
 */
import type { z } from "zod"
import type { Answer, ErrorEntry, NamedBody, RouteSpec } from "../routes/route-spec.js"
import { jsonSchemaOf } from "../wire/json-schema.js"
import type { JsonSchema } from "../wire/json-schema.js"
import { schemaUri } from "./components.js"
import { errorResponses } from "./error-responses.js"
import type { ErrorResponseName } from "./error-responses.js"

/** The component names of the schemas a route may refer to: a request's, and an answer's. */
export interface ComponentNames {
  request: ReadonlyMap<z.ZodType, string>
  response: ReadonlyMap<z.ZodType, string>
}

const isZod = (schema: unknown): schema is z.ZodType =>
  typeof schema === "object" && schema !== null && "_zod" in schema

/** A named schema as a `$ref`; one the components do not name is written out where it is used. */
const schemaOf = (schema: z.ZodType, names: ReadonlyMap<z.ZodType, string>, io: "input" | "output"): JsonSchema => {
  const name = names.get(schema)
  return name ? { $ref: schemaUri(name) } : jsonSchemaOf(schema, io)
}

const pathParams = (params: Readonly<Record<string, string>> = {}) =>
  Object.entries(params).map(([name, description]) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string" },
  }))

/** Each field of a query schema as a query parameter, its description lifted to the parameter. */
const queryParams = (schema: z.ZodType) => {
  const { properties = {}, required = [] } = jsonSchemaOf(schema, "input") as {
    properties?: Record<string, { description?: string }>
    required?: string[]
  }
  return Object.entries(properties).map(([name, { description, ...parameter }]) => ({
    name,
    in: "query",
    required: required.includes(name),
    description,
    schema: parameter,
  }))
}

const answerOf = ({ description, json, text, html, headers }: Answer, names: ComponentNames) => {
  const content: Record<string, { schema: JsonSchema }> = {}
  if (text) content["text/plain"] = { schema: { type: "string" } }
  if (html) content["text/html"] = { schema: { type: "string" } }
  if (Array.isArray(json))
    content["application/json"] = { schema: { oneOf: json.map((s) => schemaOf(s, names.response, "output")) } }
  else if (isZod(json)) content["application/json"] = { schema: schemaOf(json, names.response, "output") }
  else if (json) content["application/json"] = { schema: json as JsonSchema }
  return { description, ...(Object.keys(content).length > 0 ? { content } : {}), ...(headers ? { headers } : {}) }
}

/**
 * What the app answers before the route's handler runs, or when it fails: the key check and the request guard
 * (401, 403), the body limit and the content type (413, 415), a body or query that does not parse (400), and
 * onError (500, 503). A route that answers in JSON-RPC answers its own failures, and reads its own body.
 */
const appErrors = (spec: RouteSpec): ErrorResponseName[] => {
  if (spec.probe) return []
  const errors: ErrorResponseName[] = ["Unauthorized", "Forbidden"]
  if (spec.jsonRpc) return spec.body ? [...errors, "PayloadTooLarge", "UnsupportedMediaType"] : errors
  errors.push("Internal", "DatabaseUnavailable")
  // the request guard checks the content type a POST, PATCH or DELETE names, with a body or without
  if (spec.body) errors.push("BadRequest", "PayloadTooLarge", "UnsupportedMediaType")
  else if (spec.method !== "get") errors.push("UnsupportedMediaType")
  // unless the route answers its own 400 (the OAuth callback's page: its query takes any strings)
  if (spec.query && !spec.body && !(400 in spec.responses)) errors.push("BadRequest")
  return errors
}

const errorRef = (entry: ErrorEntry) => {
  const name = typeof entry === "string" ? entry : entry.error
  const ref = { $ref: `#/components/responses/${name}` }
  return {
    status: errorResponses[name].status,
    answer: typeof entry === "string" ? ref : { ...ref, description: entry.description },
  }
}

const requestBodyOf = (body: unknown, names: ComponentNames) => {
  if (body === undefined) return undefined
  const schema = isZod(body)
    ? schemaOf(body, names.request, "input")
    : { $ref: schemaUri((body as NamedBody<unknown>).component) }
  return { required: true, content: { "application/json": { schema } } }
}

export const operationOf = (spec: RouteSpec, names: ComponentNames) => {
  const responses: Record<number, object> = {}
  const answer = (status: number, response: object) => {
    if (status in responses) throw new Error(`${spec.operationId}: two answers for status ${status}`)
    responses[status] = response
  }
  for (const [status, response] of Object.entries(spec.responses)) answer(Number(status), answerOf(response, names))
  for (const entry of [...appErrors(spec), ...(spec.errors ?? [])]) {
    const { status, answer: response } = errorRef(entry)
    answer(status, response)
  }
  const parameters = [...pathParams(spec.params), ...(spec.query ? queryParams(spec.query as z.ZodType) : [])]
  const requestBody = requestBodyOf(spec.body, names)
  return {
    tags: [spec.tag],
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    // a loopback server without keys needs none ({}); else a key with the route's scope (OpenAPI 3.1 lets a bearer
    // scheme list role names)
    security: spec.probe ? [] : [{}, { apiKey: spec.scope === null ? [] : [spec.scope] }],
  }
}
