/** `describe`: what a script needs to call tools, by exact path or by search over paths and descriptions. */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import type { ToolRow } from "@switchboard/core"
import { describeText } from "./describe-text.js"
import type { McpServices } from "./services.js"
import { errorResult, inputSchemaOf, parseArgs, textResult } from "./tool-result.js"

const DEFAULT_LIMIT = 20

const input = z.object({
  paths: z.array(z.string()).max(100).optional().describe('exact tool paths, such as ["github.search_issues"]'),
  query: z.string().optional().describe("words to look for in tool paths and descriptions (used when paths is absent)"),
  limit: z.number().int().min(1).max(200).optional().describe(`how many tools a query returns at most (default ${DEFAULT_LIMIT})`),
})

export const describeTool: Tool = {
  name: "describe",
  description: "Describe tools for scripts run with execute: each tool's path, how to call it, its input schema and the type of `r.data`. Give exact paths, or a query to search; with neither, lists tools.",
  inputSchema: inputSchemaOf(input),
  annotations: { title: "Describe catalog tools", readOnlyHint: true },
}

const byPaths = async ({ store, sources }: McpServices, paths: string[]) => {
  const split = paths.map((path) => ({ path, dot: path.indexOf(".") }))
  await Promise.all([...new Set(split.filter((p) => p.dot > 0).map((p) => p.path.slice(0, p.dot)))].map((ns) => sources.ensureFreshNamespace(ns)))
  const rows = await Promise.all(split.map(({ path, dot }) => (dot > 0 ? store.getTool(path.slice(0, dot), path.slice(dot + 1)) : null)))
  return { found: rows.filter((r): r is ToolRow => r !== null), missing: paths.filter((_, i) => rows[i] === null) }
}

export const callDescribe = async (services: McpServices, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(input, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const { paths, query, limit = DEFAULT_LIMIT } = parsed.value

  if (paths !== undefined && paths.length > 0) {
    const { found, missing } = await byPaths(services, paths)
    const note = missing.length > 0 ? `no tool ${missing.map((p) => JSON.stringify(p)).join(", ")}; search with describe {"query": "..."}` : null
    if (found.length === 0) return errorResult(note!)
    return textResult(describeText(found), ...(note ? [note] : []))
  }

  await services.sources.ensureFreshNamespace()
  const rows = await services.store.listTools({ query: query || undefined, limit })
  if (rows.length === 0) return textResult(query ? `no tool matches ${JSON.stringify(query)}` : "the catalog has no tools yet")
  const more = rows.length === limit ? [`showing the first ${limit}; narrow the query or raise limit to see more`] : []
  return textResult(describeText(rows), ...more)
}
