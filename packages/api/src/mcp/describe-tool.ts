/** `describe`: what a script needs to call tools, by exact path or by search over paths and descriptions. */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { DEFAULT_DESCRIBE_LIMIT, createDescribeService, describeRequest } from "@switchboard/core"
import type { McpServices } from "./services.js"
import { errorResult, inputSchemaOf, parseArgs, textResult } from "./tool-result.js"

export const describeTool: Tool = {
  name: "describe",
  description:
    "TypeScript declarations for tools, to write execute scripts against: each tool's input type and `Promise<ToolResult<Data>>`, where Data is the type of `r.data` (declared, or learned from real calls). Give exact paths, or a query to search; with neither, the first tools of the catalog.",
  inputSchema: inputSchemaOf(describeRequest),
  annotations: { title: "Describe catalog tools", readOnlyHint: true },
}

export const callDescribe = async (services: McpServices, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(describeRequest, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const { paths, query, limit = DEFAULT_DESCRIBE_LIMIT } = parsed.value
  const describe = createDescribeService(services.store, services.policies)

  if (paths !== undefined) {
    const namespaces = new Set(paths.filter((p) => p.indexOf(".") > 0).map((p) => p.slice(0, p.indexOf("."))))
    await Promise.all([...namespaces].map((ns) => services.sources.ensureFreshNamespace(ns)))
    const described = await describe.describeMany({ paths })
    const note =
      described.missing.length > 0
        ? `no tool ${described.missing.map((p) => JSON.stringify(p)).join(", ")}; search with describe {"query": "..."}`
        : null
    if (described.tools.length === 0) return errorResult(note!)
    return textResult(described.typescript, ...(note ? [note] : []))
  }

  await services.sources.ensureFreshNamespace()
  const described = await describe.describeMany({ query, limit })
  if (described.tools.length === 0)
    return textResult(query ? `no tool matches ${JSON.stringify(query)}` : "the catalog has no tools yet")
  const more =
    described.tools.length === limit ? [`showing the first ${limit}; narrow the query or raise limit to see more`] : []
  return textResult(described.typescript, ...more)
}
