/**
 * What a script learns of the catalog from inside: `tools.$describe(paths)` and `tools.$search(query, limit)`, and
 * the `tool_not_found` answer to a path the catalog does not list, with the closest names it does.
 */
import type { CatalogStore } from "../catalog/rows.js"
import { createDescribeService } from "../describe/describe-service.js"
import type { Outcome } from "../errors.js"
import type { PolicyDecider } from "../policy/policy.js"
import { DEFAULT_DESCRIBE_LIMIT } from "../describe-bounds.js"
import { describeRequest, parseRequest } from "../request-schemas.js"
import { ToolErrorCodes, errResult, okResult } from "../result.js"
import type { ToolResult } from "../result.js"
import { closestNames } from "./suggest.js"

export interface DiscoveryOptions {
  store: CatalogStore
  /** describe shows the policy a call of each tool falls under */
  policies: PolicyDecider
}

const discoveryExamples = {
  $describe:
    "tools.$describe takes a tool path or an array of paths, and optionally the data fields to declare, " +
    'e.g. tools.$describe("ns.tool") or tools.$describe(["ns.tool"], ["user.login"])',
  $search: 'tools.$search takes a query string and an optional limit, e.g. tools.$search("weather", 5)',
}

/** How to call `tools.$describe` or `tools.$search`, and what was wrong with this call when the check said. */
const discoveryUsage = (path: "$describe" | "$search", input: Outcome<unknown>) =>
  input.ok ? discoveryExamples[path] : `${discoveryExamples[path]} (${input.error.message})`

export const createDiscovery = ({ store, policies }: DiscoveryOptions) => {
  const describe = createDescribeService(store, policies)

  /** `tool_not_found`, naming the closest paths: in `namespace` when it has any, else in the whole catalog. */
  const notFound = async (path: string, namespace: string | null): Promise<ToolResult> => {
    const inNamespace = namespace ? await store.toolPaths(namespace) : []
    const candidates = inNamespace.length > 0 ? inNamespace : await store.toolPaths()
    const suggestions = closestNames(path, candidates)
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?` : ""
    return errResult(ToolErrorCodes.toolNotFound, `no tool "${path}".${hint}`, { data: { suggestions } })
  }

  /**
   * `tools.$describe(paths, fields)` and `tools.$search(query, limit)`, checked by the describe request's one definition
   * (../request-schemas.ts) as POST /v1/describe and the MCP tool are. Null for any other path.
   */
  const discover = async (path: string, args: unknown): Promise<ToolResult | null> => {
    if (path !== "$describe" && path !== "$search") return null
    const input = parseRequest(describeRequest, args ?? {})
    const { paths, query, fields, limit = DEFAULT_DESCRIBE_LIMIT } = input.ok ? input.value : {}
    if (path === "$describe") {
      if (!input.ok || !paths) return errResult(ToolErrorCodes.invalidArguments, discoveryUsage(path, input))
      const described = await describe.describeMany({ paths, ...(fields ? { fields } : {}) })
      return described.missing.length === paths.length ? notFound(paths[0]!, null) : okResult(described.typescript)
    }
    if (!input.ok || query === undefined) return errResult(ToolErrorCodes.invalidArguments, discoveryUsage(path, input))
    const found = await describe.search(query, { limit })
    return okResult(found.map((t) => ({ path: t.path, description: t.description })))
  }

  return { discover, notFound }
}
