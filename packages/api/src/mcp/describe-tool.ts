/**
 * `describe`: finding tools, then what a script needs to call them. A search (or neither paths nor query) answers
 * one line per tool, so a large catalog costs the model a few tokens a match; exact paths answer the TypeScript
 * declarations, the same text as POST /v1/describe.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import * as Describe from "@switchboard/core/describe"
import { describeRequest } from "@switchboard/core"
import { searchLine } from "./search-line.js"
import type { McpServices, McpToolCall } from "./services.js"
import { errorResult, inputSchemaOf, parseArgs, textResult } from "./tool-result.js"

/** The request schema's own description repeats the tool's: listed once, in the tool's. */
const { description: _, ...listedInput } = inputSchemaOf(describeRequest) as ReturnType<typeof inputSchemaOf> & {
  description?: string
}

export const describeTool: Tool = {
  name: "describe",
  description:
    "Find tools, then their types. A `query` (or neither field) answers matching tools, one line each. " +
    "Exact `paths` answer TypeScript declarations to write scripts against: " +
    "each tool's input type and `Promise<ToolResult<Data>>`, Data being the type of `r.data`.",
  inputSchema: listedInput,
  annotations: { title: "Describe catalog tools", readOnlyHint: true },
}

const describeByPath = async (
  services: McpServices,
  paths: string[],
  fields: string[] | undefined,
): Promise<CallToolResult> => {
  const namespaces = new Set(paths.filter((p) => p.indexOf(".") > 0).map((p) => p.slice(0, p.indexOf("."))))
  await Promise.all([...namespaces].map((ns) => services.sources.ensureFreshNamespace(ns)))
  const described = await Describe.createDescribeService(services.store, services.policies).describeMany({
    paths,
    ...(fields ? { fields } : {}),
  })
  const note =
    described.missing.length > 0
      ? `no tool ${described.missing.map((p) => JSON.stringify(p)).join(", ")}; search with describe {"query": "..."}`
      : null
  if (described.tools.length === 0) return errorResult(note!)
  return textResult(described.typescript, ...(note ? [note] : []))
}

const search = async (services: McpServices, query: string | undefined, limit: number): Promise<CallToolResult> => {
  await services.sources.ensureFreshNamespace()
  const found = query?.trim()
    ? await Describe.createDescribeService(services.store).search(query, { limit })
    : await services.store.listTools({ limit })
  if (found.length === 0)
    return textResult(query ? `no tool matches ${JSON.stringify(query)}` : "the catalog has no tools yet")
  const lines = await Promise.all(found.map(async (tool) => searchLine(tool, await services.policies.decide(tool))))
  const more = found.length === limit ? `; showing the first ${limit}: narrow the query or raise limit for more` : ""
  return textResult(lines.join("\n"), `[describe {"paths": [...]} for their types${more}]`)
}

export const callDescribe = async ({ services }: McpToolCall, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(describeRequest, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const { paths, query, fields, limit = Describe.DEFAULT_DESCRIBE_LIMIT } = parsed.value
  return paths !== undefined ? describeByPath(services, paths, fields) : search(services, query, limit)
}
