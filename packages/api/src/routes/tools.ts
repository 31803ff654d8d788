import { Hono } from "hono"
import { InvalidInput, NotFound } from "@switchboard/core"
import type { ToolRow } from "@switchboard/core"
import type { AppServices } from "../app.js"
import { sendError } from "../http-errors.js"

const summary = (t: ToolRow) => ({ path: t.path, namespace: t.namespace, name: t.name, description: t.description })

export const toolRoutes = ({ store, sources }: AppServices) =>
  new Hono()
    .get("/", async (c) => {
      const { namespace, query, limit } = c.req.query()
      const parsedLimit = limit === undefined ? undefined : Number(limit)
      if (parsedLimit !== undefined && (!Number.isInteger(parsedLimit) || parsedLimit <= 0)) {
        return sendError(c, new InvalidInput({ message: `limit must be a positive whole number (got "${limit}")` }))
      }
      await sources.ensureFreshNamespace(namespace || undefined)
      const tools = await store.listTools({ namespace: namespace || undefined, query: query || undefined, limit: parsedLimit })
      return c.json({ tools: tools.map(summary) })
    })
    .get("/:path", async (c) => {
      const path = c.req.param("path")
      const dot = path.indexOf(".")
      const tool = dot > 0 ? await store.getTool(path.slice(0, dot), path.slice(dot + 1)) : null
      if (!tool) return sendError(c, new NotFound({ message: `no tool "${path}"` }))
      return c.json({
        tool: { ...summary(tool), inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, resultEncoding: tool.resultEncoding },
      })
    })
