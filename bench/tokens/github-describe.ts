/**
 * What describe would answer for a GitHub operation once OpenAPI sources exist: an estimate, not Switchboard's
 * side measured. Core's describe renders a row made from the spec (the success answer's schema as the declared
 * output, under the encoding that serves it), as such a source might store it.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type * as Catalog from "@switchboard/core/catalog"
import * as Describe from "@switchboard/core/describe"
import { ResultEncodings } from "@switchboard/core"
import { listedTool, tokensOf } from "./count.js"

/** Common operations a task would use. */
export const COMMON_OPERATIONS = [
  "repos_get",
  "issues_list-for-repo",
  "issues_create",
  "pulls_get",
  "search_issues-and-pull-requests",
]

const rowOf = (tool: Tool, withOutput: boolean): Catalog.ToolRow => ({
  id: tool.name,
  sourceId: "github",
  namespace: "github",
  name: tool.name,
  path: `github.${tool.name}`,
  description: tool.description ?? null,
  inputSchema: tool.inputSchema,
  outputSchema: withOutput ? (tool.outputSchema ?? null) : null,
  annotations: null,
  resultEncoding: ResultEncodings.mcpCallToolResultV2,
  encoding: ResultEncodings.mcpCallToolResultV2,
  syncedAt: 0,
})

const declared = (row: Catalog.ToolRow) => tokensOf(Describe.describeTool({ tool: row, shape: null }).typescript)

export const describeEstimates = (tools: readonly Tool[]) =>
  COMMON_OPERATIONS.flatMap((name) => {
    const tool = tools.find((t) => t.name === name)
    if (!tool) return []
    return [
      {
        name,
        listed: tokensOf(JSON.stringify(listedTool(tool))),
        withoutData: declared(rowOf(tool, false)),
        withData: declared(rowOf(tool, true)),
      },
    ]
  })
