/**
 * Lists every tool of an MCP server, following `nextCursor` through all pages. Each tool is checked on its
 * own: one tool with an unusable output schema keeps its place in the catalog without that schema, and a
 * malformed entry is skipped; neither costs the rest of the list (the SDK's listTools rejects them all).
 */
import { z } from "zod"
import { isRecord } from "@switchboard/core"
import type { DiscoveredTool, DiscoveryProgress } from "@switchboard/core"
import type { McpConnection } from "./connection.js"

const ListPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() })

/** A server that keeps handing out cursors is cut off rather than followed forever. */
const MAX_PAGES = 1000

/** A `$ref` that does not point inside the schema itself; the spec forbids fetching it, so we cannot resolve it. */
const hasRemoteRef = (schema: unknown): boolean => {
  if (Array.isArray(schema)) return schema.some(hasRemoteRef)
  if (!isRecord(schema)) return false
  return Object.entries(schema).some(
    ([key, value]) => (key === "$ref" && typeof value === "string" && !value.startsWith("#")) || hasRemoteRef(value),
  )
}

/** An output schema we can type `data` with: an object schema with no remote references. */
const usableOutputSchema = (schema: unknown): unknown | null =>
  isRecord(schema) && schema.type === "object" && !hasRemoteRef(schema) ? schema : null

export const toDiscoveredTool = (entry: unknown): DiscoveredTool | null => {
  if (!isRecord(entry) || typeof entry.name !== "string" || entry.name.length === 0) return null
  return {
    name: entry.name,
    description: typeof entry.description === "string" ? entry.description : null,
    inputSchema: isRecord(entry.inputSchema) ? entry.inputSchema : { type: "object" },
    outputSchema: usableOutputSchema(entry.outputSchema),
    annotations: isRecord(entry.annotations) ? entry.annotations : null,
  }
}

export const listAllTools = async (
  connection: McpConnection,
  timeoutMs: number,
  onProgress?: (progress: DiscoveryProgress) => void,
): Promise<DiscoveredTool[]> => {
  const tools: DiscoveredTool[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await connection.client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      ListPage,
      { timeout: timeoutMs },
    )
    for (const entry of result.tools) {
      const tool = toDiscoveredTool(entry)
      if (tool) tools.push(tool)
    }
    onProgress?.({ pages: page + 1, tools: tools.length })
    if (!result.nextCursor) return tools
    cursor = result.nextCursor
  }
  throw new Error(`tools/list still had more pages after ${MAX_PAGES}; giving up`)
}
