/**
 * Request validation from the wire schemas: a route names the schema of its JSON body or query string (its `body`
 * and `query`), its group runs these before the handler (./routes/route-group.ts, which also types the input from
 * the schema), and the handler reads the parsed value with `c.req.valid(...)`. A failure is 400 `invalid_request`
 * with every message of the schema (core's `parseRequest`); a body that is not JSON is 400 `invalid_json`.
 *
 * Not hono's own `validator("json")`: it parses only bodies labelled JSON (others reach the route as `{}`),
 * and it answers malformed JSON by throwing, which our onError would report as a 500.
 */
import type { Context, MiddlewareHandler } from "hono"
import type { z } from "zod"
import { parseRequest } from "@switchboard/core"
import type { AppEnv } from "./env.js"
import { errorResponse, sendError } from "./http-errors.js"

/** Reads a JSON body; a body that is not JSON is the caller's mistake, answered with 400. */
const readJson = async (c: Context): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> => {
  const text = await c.req.text()
  try {
    return { ok: true, body: JSON.parse(text) }
  } catch (cause) {
    const detail = text.length === 0 ? "the body is empty" : (cause as Error).message
    return { ok: false, response: errorResponse(c, "invalid_json", `the body must be JSON: ${detail}`, 400) }
  }
}

export const jsonBody =
  (schema: z.ZodType): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const body = await readJson(c)
    if (!body.ok) return body.response
    const parsed = parseRequest(schema, body.body)
    if (!parsed.ok) return sendError(c, parsed.error)
    c.req.addValidatedData("json", parsed.value as object)
    await next()
  }

/**
 * A JSON body its service checks itself: a source's fields depend on its kind's plugin (core's `sourceFields`,
 * then the plugin's `configSchema`), which only the sources service holds.
 */
export const jsonForService: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = await readJson(c)
  if (!body.ok) return body.response
  c.req.addValidatedData("json", body.body as object)
  await next()
}

export const query =
  (schema: z.ZodType): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const parsed = parseRequest(schema, c.req.query())
    if (!parsed.ok) return sendError(c, parsed.error)
    c.req.addValidatedData("query", parsed.value as object)
    await next()
  }
