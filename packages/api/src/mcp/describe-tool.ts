/** `describe`: what a script needs to call tools, by exact path or by search over paths and descriptions. */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import { DEFAULT_DESCRIBE_LIMIT, MAX_DESCRIBE_TOOLS, createDescribeService } from "@switchboard/core"
import type { McpServices } from "./services.js"
import { errorResult, inputSchemaOf, parseArgs, textResult } from "./tool-result.js"

const input = z.object({
  paths: z
    .array(z.string())
    .max(MAX_DESCRIBE_TOOLS)
    .optional()
    .describe('exact tool paths, such as ["github.search_issues"]'),
  query: z.string().optional().describe("words to look for in tool paths and descriptions (used when paths is absent)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_DESCRIBE_TOOLS)
    .optional()
    .describe(`how many tools a query returns at most (default ${DEFAULT_DESCRIBE_LIMIT})`),
})

export const describeTool: Tool = {
  name: "describe",
  description:
    "TypeScript declarations for tools, to write execute scripts against: each tool's input type and `Promise<ToolResult<Data>>`, where Data is the type of `r.data` (declared, or learned from real calls). Give exact paths, or a query to search; with neither, the first tools of the catalog.",
  inputSchema: inputSchemaOf(input),
  annotations: { title: "Describe catalog tools", readOnlyHint: true },
}

export const callDescribe = async (services: McpServices, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(input, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const { paths, query, limit = DEFAULT_DESCRIBE_LIMIT } = parsed.value
  const describe = createDescribeService(services.store)

  if (paths !== undefined && paths.length > 0) {
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
