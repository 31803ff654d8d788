/**
 * Catalog (c): GitHub's REST API from its official OpenAPI document (@octokit/openapi, dereferenced), as a native
 * importer would list it to a model: one tool per operation, named by its operationId, described by its summary
 * and description, its input schema the operation's parameters and its JSON body's properties. No MCP server is
 * involved: a call is the importer's HTTP request, made to the fixtures' GitHub stand-in, answered as the body in
 * one text block (./github-native.ts).
 */
import { createRequire } from "node:module"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"

type Schema = Record<string, unknown>

interface Parameter {
  name: string
  in: string
  description?: string
  required?: boolean
  schema?: Schema
}

interface Operation {
  operationId: string
  summary?: string
  description?: string
  parameters?: Parameter[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}

/** How the importer calls an operation: its method and path, and where each argument goes. */
export interface OperationCall {
  method: string
  path: string
  /** arguments sent in the path or the query, by name; the rest go in the JSON body */
  params: { name: string; in: string }[]
}

export type ListedOperation = Tool & { call: OperationCall }

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"]

const inputSchemaOf = (parameters: Parameter[], body: Schema | undefined): Tool["inputSchema"] => {
  const properties: Record<string, Schema> = {}
  const required: string[] = []
  for (const p of parameters) {
    properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) }
    if (p.required) required.push(p.name)
  }
  if (body && body.type === "object" && body.properties) {
    Object.assign(properties, body.properties)
    if (Array.isArray(body.required)) required.push(...(body.required as string[]))
  } else if (body) {
    properties.body = body
    required.push("body")
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) }
}

/** The dereferenced document: every $ref written out, so each input schema stands alone as a listed tool's must. */
export const githubTools = (): ListedOperation[] => {
  const spec = createRequire(import.meta.url)("@octokit/openapi/generated/api.github.com.deref.json") as {
    paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>
  }
  const tools: ListedOperation[] = []
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined
      if (!op) continue
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      const body = op.requestBody?.content?.["application/json"]?.schema
      tools.push({
        name: op.operationId.replaceAll("/", "_"),
        description: [op.summary, op.description].filter(Boolean).join("\n\n"),
        inputSchema: inputSchemaOf(parameters, body),
        call: { method, path, params: parameters.map((p) => ({ name: p.name, in: p.in })) },
      })
    }
  }
  return tools
}
