import { Hono } from "hono"
import { InvalidInput, NotFound, createDescribeService, MAX_DESCRIBE_TOOLS } from "@switchboard/core"
import type { ToolRow } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { readJson, sendError } from "../http-errors.js"
import { MAX_LIST_LIMIT, wholeNumber } from "../whole-number.js"

const summary = (t: ToolRow) => ({ path: t.path, namespace: t.namespace, name: t.name, description: t.description })

export const toolRoutes = ({ store, sources }: AppServices) => {
  const describe = createDescribeService(store)
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const { namespace, query, limit } = c.req.query()
      const checked = wholeNumber(limit, "limit", { min: 1, max: MAX_LIST_LIMIT })
      if (!checked.ok) return sendError(c, new InvalidInput({ message: checked.message }))
      const parsedLimit = checked.value
      await sources.ensureFreshNamespace(namespace || undefined)
      const tools = query?.trim()
        ? await describe.search(query, { namespace: namespace || undefined, limit: parsedLimit })
        : await store.listTools({ namespace: namespace || undefined, limit: parsedLimit })
      return c.json({ tools: tools.map(summary) })
    })
    .get("/:path", async (c) => {
      const path = c.req.param("path")
      const tool = await describe.getTool(path)
      if (!tool) return sendError(c, new NotFound({ message: `no tool "${path}"` }))
      const described = await describe.describeOne(path)
      return c.json({
        tool: {
          ...summary(tool),
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          resultEncoding: tool.resultEncoding,
          typescript: described?.typescript ?? null,
          outputSource: described?.outputSource ?? null,
        },
      })
    })
}

export const describeRoutes = ({ store }: AppServices) => {
  const describe = createDescribeService(store)
  return new Hono<AppEnv>().post("/", async (c) => {
    const body = await readJson(c)
    if (!body.ok) return body.response
    const { paths, query, limit } = (body.body ?? {}) as Record<string, unknown>
    const pathList = Array.isArray(paths) && paths.every((p) => typeof p === "string") ? (paths as string[]) : null
    if (paths !== undefined && (!pathList || pathList.length === 0 || pathList.length > MAX_DESCRIBE_TOOLS)) {
      return sendError(
        c,
        new InvalidInput({ message: `"paths" must be an array of 1 to ${MAX_DESCRIBE_TOOLS} tool paths` }),
      )
    }
    if (!pathList && typeof query !== "string")
      return sendError(
        c,
        new InvalidInput({ message: 'give "paths": ["ns.tool", ...] or "query": "words", with an optional "limit"' }),
      )
    const checked = wholeNumber(limit, "limit", { min: 1, max: MAX_DESCRIBE_TOOLS })
    if (!checked.ok) return sendError(c, new InvalidInput({ message: checked.message }))
    return c.json(
      await describe.describeMany(pathList ? { paths: pathList } : { query: query as string, limit: checked.value }),
    )
  })
}
