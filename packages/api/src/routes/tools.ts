import { Hono } from "hono"
import { NotFound, createDescribeService, describeRequest } from "@switchboard/core"
import type { ToolRow } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { jsonBody, query } from "../validate.js"
import { toolsQuery } from "../wire/tools.js"
import type { DescribeBody, ToolBody, ToolsBody } from "../wire/tools.js"

const summary = (t: ToolRow) => ({ path: t.path, namespace: t.namespace, name: t.name, description: t.description })

export const toolRoutes = ({ store, sources, policies }: AppServices) => {
  const describe = createDescribeService(store, policies)
  return new Hono<AppEnv>()
    .get("/", query(toolsQuery), async (c) => {
      const { query: words, limit } = c.req.valid("query")
      const namespace = c.req.valid("query").namespace || undefined
      await sources.ensureFreshNamespace(namespace)
      const tools = words?.trim()
        ? await describe.search(words, { namespace, limit })
        : await store.listTools({ namespace, limit })
      return c.json({ tools: tools.map(summary) } satisfies ToolsBody)
    })
    .get("/:path", async (c) => {
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
        },
      } satisfies ToolBody)
    })
}

/** The describe request is core's one definition, shared with the MCP tool and `tools.$describe`. */
export const describeRoutes = ({ store, policies }: AppServices) => {
  const describe = createDescribeService(store, policies)
  return new Hono<AppEnv>().post("/", jsonBody(describeRequest), async (c) =>
    c.json((await describe.describeMany(c.req.valid("json"))) satisfies DescribeBody),
  )
}
