/** /v1/tools and /v1/describe: the catalog, and TypeScript declarations to write scripts against. */
import type * as Catalog from "@switchboard/core/catalog"
import * as Describe from "@switchboard/core/describe"
import { NotFound, describeRequest } from "@switchboard/core"
import { sendError } from "../http-errors.js"
import { describeBody, toolBody, toolsBody, toolsQuery } from "../wire/tools.js"
import type { DescribeBody, ToolBody, ToolsBody } from "../wire/tools.js"
import { annotationsView } from "../wire/tool-annotations.js"
import { routeGroup } from "./route-group.js"

const summary = (t: Catalog.ToolRow) => ({
  path: t.path,
  namespace: t.namespace,
  name: t.name,
  description: t.description,
})

export const toolRoutes = routeGroup(({ store, sources, policies }) => ({
  store,
  sources,
  policies,
  describe: Describe.createDescribeService(store, policies),
}))
  .route({
    method: "get",
    path: "/v1/tools",
    scope: "read",
    operationId: "listTools",
    tag: "tools",
    summary: "List the catalog's tools, or search them",
    query: toolsQuery,
    responses: { 200: { description: "the tools", json: toolsBody } },
    handler: async (c, { store, sources, describe }) => {
      const { query: words, limit } = c.req.valid("query")
      const namespace = c.req.valid("query").namespace || undefined
      await sources.ensureFreshNamespace(namespace)
      const tools = words?.trim()
        ? await describe.search(words, { namespace, limit })
        : await store.listTools({ namespace, limit })
      return c.json({ tools: tools.map(summary) } satisfies ToolsBody)
    },
  })
  .route({
    method: "get",
    path: "/v1/tools/:path",
    scope: "read",
    operationId: "getTool",
    tag: "tools",
    summary: "One tool: its schemas and a TypeScript declaration",
    params: { path: "`<namespace>.<name>`, such as `github.search_issues`" },
    responses: { 200: { description: "the tool", json: toolBody } },
    errors: ["NotFound"],
    handler: async (c, { policies, describe }) => {
      const path = c.req.param("path")
      const tool = await describe.getTool(path)
      if (!tool) return sendError(c, new NotFound({ message: `no tool "${path}"` }))
      const described = await describe.describeOne(path)
      // its action and reason, as describe shows them: the rule that matched is GET /v1/policies's to show
      const { action, reason } = await policies.decide({
        path: tool.path,
        namespace: tool.namespace,
        annotations: tool.annotations,
      })
      return c.json({
        tool: {
          ...summary(tool),
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          resultEncoding: tool.resultEncoding,
          typescript: described?.typescript ?? null,
          outputSource: described?.outputSource ?? null,
          policy: { action, reason },
          annotations: annotationsView(tool.annotations),
        },
      } satisfies ToolBody)
    },
  })
  .route({
    method: "post",
    path: "/v1/describe",
    scope: "execute",
    operationId: "describeTools",
    tag: "tools",
    summary: "TypeScript declarations for several tools in one block",
    // core's one definition, shared with the MCP tool and `tools.$describe`
    body: describeRequest,
    responses: { 200: { description: "the declarations", json: describeBody } },
    handler: async (c, { describe }) =>
      c.json((await describe.describeMany(c.req.valid("json"))) satisfies DescribeBody),
  })
