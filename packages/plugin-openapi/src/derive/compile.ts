/**
 * A parsed spec -> the source's tools and the component schemas they share. Each operation is one tool: its name
 * (./tool-names.ts), its summary and description, an input schema merging its parameters with its JSON body, its
 * success answer's schema as the declared output, annotations from its method, and the binding a call is made
 * with (../binding.ts). Component schemas are converted once, as the tools reach them, into `definitions`, which
 * the tools' schemas point into as `#/$defs/<name>`. The first problem found stops the compile, named by place.
 */
import { isRecord, own } from "@switchboard/core"
import type { DiscoveredTool } from "@switchboard/core"
import type { OperationBinding, SchemeBinding } from "../binding.js"
import type { OpenApiDocument } from "../spec/parse-spec.js"
import { deref } from "../spec/refs.js"
import { SpecProblem, at } from "../spec/spec-problem.js"
import { createSchemaConverter, put } from "../spec/to-json-schema.js"
import { deriveParameters } from "./parameters.js"
import { deriveRequestBody } from "./request-body.js"
import { deriveOutputSchema } from "./responses.js"
import { declaredSchemes, deriveSecurity } from "./security.js"
import { toolNames } from "./tool-names.js"

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

export interface CompiledSpec {
  tools: (DiscoveredTool & { binding: OperationBinding })[]
  /** the component schemas the tools reach, converted, by name */
  definitions: Record<string, unknown>
  /** the security schemes the spec declares, by name */
  schemes: ReadonlyMap<string, SchemeBinding>
}

const READ_ONLY = new Set(["get", "head", "options"])
const DESTRUCTIVE = new Set(["delete", "put", "patch"])

export const annotationsOf = (method: string) =>
  READ_ONLY.has(method) ? { readOnlyHint: true } : DESTRUCTIVE.has(method) ? { destructiveHint: true } : null

/** The first server's URL, its variables given their defaults; resolved against the spec's own URL when relative. */
const serverOf = (servers: unknown, specUrl: string | undefined): string | null => {
  if (!Array.isArray(servers) || !isRecord(servers[0])) return null
  const server = servers[0]
  const url = own(server, "url")
  if (typeof url !== "string") return null
  const variables = own(server, "variables")
  const filled = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = isRecord(variables) ? own(variables, name) : undefined
    const value = isRecord(variable) ? own(variable, "default") : undefined
    return typeof value === "string" ? value : whole
  })
  if (!specUrl) return filled
  try {
    return new URL(filled, specUrl).toString()
  } catch {
    return filled
  }
}

const descriptionOf = (op: Record<string, unknown>) => {
  const parts = [own(op, "summary"), own(op, "description")].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  )
  if (own(op, "deprecated") === true) parts.push("Deprecated.")
  return parts.length > 0 ? parts.join("\n\n") : null
}

interface Found {
  path: string
  method: string
  item: Record<string, unknown>
  op: Record<string, unknown>
  where: string
}

const operationsOf = (doc: OpenApiDocument): Found[] => {
  const found: Found[] = []
  const paths = isRecord(doc.paths) ? doc.paths : {}
  for (const path of Object.keys(paths)) {
    const itemWhere = at("paths", path)
    const item = deref(doc, paths[path], itemWhere)
    if (!isRecord(item)) throw new SpecProblem(itemWhere, "a path item must be an object")
    for (const method of METHODS) {
      const op = own(item, method)
      if (op === undefined) continue
      const where = at(itemWhere, method)
      if (!isRecord(op)) throw new SpecProblem(where, "an operation must be an object")
      found.push({ path, method, item, op, where })
    }
  }
  return found
}

/** The security schemes the spec declares, each OAuth 2 one with every scope its operations ask of it. */
const schemesOf = (doc: OpenApiDocument, operations: readonly Found[], specUrl: string | undefined) =>
  declaredSchemes(doc, { specUrl, requirements: [doc.security, ...operations.map(({ op }) => own(op, "security"))] })

/** The spec's security schemes alone, without compiling its operations (a login reads them). */
export const securitySchemes = (doc: OpenApiDocument, specUrl: string | undefined) =>
  schemesOf(doc, operationsOf(doc), specUrl)

export const compileSpec = (doc: OpenApiDocument, options: { specUrl?: string } = {}): CompiledSpec => {
  const convert = createSchemaConverter(doc, doc.openapi.startsWith("3.0."))
  const operations = operationsOf(doc)
  const schemes = schemesOf(doc, operations, options.specUrl)
  const names = toolNames(
    operations.map(({ op, method, path }) => {
      const id = own(op, "operationId")
      return { operationId: typeof id === "string" && id.trim() !== "" ? id : undefined, method, path }
    }),
  )
  const documentServer = serverOf(doc.servers, options.specUrl)
  const tools = operations.map(({ path, method, item, op, where }, index): CompiledSpec["tools"][number] => {
    const params = deriveParameters(
      doc,
      convert,
      { list: own(item, "parameters"), where: at(at("paths", path), "parameters") },
      { list: own(op, "parameters"), where: at(where, "parameters") },
    )
    const taken = new Set(params.bindings.map((p) => p.arg))
    const body = deriveRequestBody(doc, convert, own(op, "requestBody"), at(where, "requestBody"), taken)
    const properties: Record<string, unknown> = {}
    for (const [arg, schema] of [...params.properties, ...(body?.properties ?? [])]) put(properties, arg, schema)
    const required = [...params.required, ...(body?.required ?? [])]
    const security = own(op, "security") ?? doc.security
    return {
      name: names[index]!,
      description: descriptionOf(op),
      inputSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
      outputSchema: deriveOutputSchema(doc, convert, own(op, "responses"), at(where, "responses")),
      annotations: annotationsOf(method),
      binding: {
        method,
        path,
        server:
          serverOf(own(op, "servers"), options.specUrl) ??
          serverOf(own(item, "servers"), options.specUrl) ??
          documentServer,
        params: params.bindings,
        ...(body ? { body: body.binding } : {}),
        security: deriveSecurity(
          schemes,
          security,
          own(op, "security") !== undefined ? at(where, "security") : "security",
        ),
      },
    }
  })
  return { tools, definitions: convert.definitions(), schemes }
}
