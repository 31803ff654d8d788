/**
 * Describe and search as one service for every surface (HTTP, MCP, and `tools.$describe` / `tools.$search`
 * inside a script). Only a shape observed under the tool's current encoding is ever served.
 */
import type { CatalogStore, PolicyAction, ToolRow } from "../catalog/rows.js"
import type { PolicyDecider } from "../policy/policy.js"
import { describeTool, describeTools, loadObservedShape } from "./describe-tool.js"
import type { OutputSource } from "./describe-tool.js"
import { rankTools } from "./search-tools.js"
import { DEFAULT_DESCRIBE_LIMIT, MAX_DESCRIBE_TOOLS } from "../describe-bounds.js"
import { splitToolPath } from "../catalog/tool-path.js"

export interface DescribeResult {
  typescript: string
  tools: {
    path: string
    description: string | null
    outputSource: OutputSource
    /** the policy a call falls under, when describe was given the rules */
    policy?: { action: PolicyAction; reason: string }
  }[]
  /** requested paths with no tool */
  missing: string[]
}

/** `policies`: each tool is described with the policy a call of it falls under (without: no policy is shown). */
export const createDescribeService = (store: CatalogStore, policies?: PolicyDecider) => {
  const policyOf = async (tool: ToolRow) =>
    policies && (await policies.decide({ path: tool.path, namespace: tool.namespace, annotations: tool.annotations }))
  const inputOf = async (tool: ToolRow, fields?: readonly string[]) => {
    const [shape, policy] = await Promise.all([loadObservedShape(store, tool), policyOf(tool)])
    return { tool, shape, ...(policy ? { policy } : {}), ...(fields ? { fields } : {}) }
  }
  const withShapes = (tools: readonly ToolRow[], fields?: readonly string[]) =>
    Promise.all(tools.map((tool) => inputOf(tool, fields)))

  const search = async (query: string, options: { namespace?: string; limit?: number } = {}): Promise<ToolRow[]> =>
    rankTools(query, await store.listTools({ namespace: options.namespace }), options.limit)

  const getTool = async (path: string): Promise<ToolRow | null> => {
    const parts = splitToolPath(path)
    return parts ? store.getTool(parts.namespace, parts.name) : null
  }

  return {
    search,
    getTool,

    /** One tool's self-contained declaration, or null when there is no such tool. */
    async describeOne(path: string) {
      const tool = await getTool(path)
      return tool ? describeTool(await inputOf(tool)) : null
    },

    /** Several tools in one block that declares what they share once; `fields`: only those of each tool's data. */
    async describeMany(request: {
      paths?: readonly string[]
      query?: string
      limit?: number
      fields?: readonly string[]
    }): Promise<DescribeResult> {
      const missing: string[] = []
      let tools: ToolRow[]
      if (request.paths) {
        const found = await Promise.all(
          request.paths.slice(0, MAX_DESCRIBE_TOOLS).map(async (path) => ({ path, tool: await getTool(path) })),
        )
        for (const { path, tool } of found) if (!tool) missing.push(path)
        tools = found.flatMap(({ tool }) => (tool ? [tool] : []))
      } else {
        const limit = Math.min(request.limit ?? DEFAULT_DESCRIBE_LIMIT, MAX_DESCRIBE_TOOLS)
        // no query: the first tools of the catalog, so a model can see what there is
        const listed = request.query?.trim() ? await search(request.query, { limit }) : await store.listTools({ limit })
        // a listing leaves out the shared definitions its schemas reach: describing them needs them
        tools = await store.withDefinitions(listed)
      }
      const inputs = await withShapes(tools, request.fields)
      return {
        typescript: inputs.length > 0 ? describeTools(inputs) : "",
        tools: inputs.map((input) => ({
          path: input.tool.path,
          description: input.tool.description,
          outputSource: describeTool(input).outputSource,
          ...(input.policy ? { policy: { action: input.policy.action, reason: input.policy.reason } } : {}),
        })),
        missing,
      }
    },
  }
}

export type DescribeService = ReturnType<typeof createDescribeService>
