/** /v1/executions: what ran, its record, and its stored output (whole, a page of lines, or the lines that match). */
import type { Context } from "hono"
import * as Catalog from "@switchboard/core/catalog"
import * as Render from "@switchboard/core/render"
import * as Auth from "@switchboard/core/auth"
import { InvalidInput, NotFound, Overloaded, isServiceError } from "@switchboard/core"
import type { Logger } from "@switchboard/core"
import type { DownloadSlots } from "../download-slots.js"
import type { AppEnv } from "../env.js"
import { errorResponse, sendError } from "../http-errors.js"
import { outputStream } from "../output-stream.js"
import { approvalViewOf } from "../wire/approval-row-views.js"
import {
  executionBody,
  executionsBody,
  executionsQuery,
  outputMatches,
  outputPage,
  outputQuery,
} from "../wire/executions.js"
import type { ExecutionBody, ExecutionsBody, OutputMatchesBody, OutputPageBody } from "../wire/executions.js"
import { routeGroup } from "./route-group.js"

const TEXT_PLAIN = { "content-type": "text/plain; charset=utf-8" }

/** a text of one page this small is answered as one string; a longer one is streamed a page at a time */
const WHOLE_BYTES = 64 * 1024

/** `?grep=`: the lines that match, searched where the host runs searches (its queue's limit applies first) */
const search = async (c: Context<AppEnv>, grep: Render.GrepRunner, output: Render.OutputPages, pattern: string) => {
  const id = c.req.param("id")!
  let found: Awaited<ReturnType<Render.GrepRunner>>
  try {
    found = await grep(output, pattern)
  } catch (cause) {
    // the execution was deleted while the search read it
    if (isServiceError(cause)) return sendError(c, cause)
    throw cause
  }
  if (found.ok) {
    const { ok: _, ...matches } = found
    return c.json({ executionId: id, ...matches } satisfies OutputMatchesBody)
  }
  if (found.code === "overloaded") return sendError(c, new Overloaded({ message: found.message, retryAfterSeconds: 1 }))
  return found.code === "pattern_too_costly"
    ? errorResponse(c, found.code, found.message, 400)
    : sendError(c, new InvalidInput({ message: found.message }))
}

/** the stored bytes, exactly as stored (never re-rendered): a page of the text at a time, within the key's downloads */
const download = async (c: Context<AppEnv>, downloads: DownloadSlots, output: Render.OutputPages, logger: Logger) => {
  // a HEAD (served by this GET route) sends no body: it reads nothing and holds no download, whose place a body
  // left unsent would never give back
  if (c.req.method === "HEAD") return c.body(null, 200, { ...TEXT_PLAIN, "content-length": String(output.bytes) })
  const caller = c.get("caller")
  const release = downloads.take(caller)
  if (!release) {
    c.header("Retry-After", "1")
    return errorResponse(c, "too_many_downloads", downloads.refusal(caller), 429)
  }
  if (output.pages === 1 && output.bytes <= WHOLE_BYTES) {
    try {
      return c.body(await output.read(0), 200, TEXT_PLAIN)
    } finally {
      release()
    }
  }
  const executionId = c.req.param("id")
  const body = outputStream(output, {
    done: release,
    failed: (cause) =>
      logger.warn("a download of stored output stopped before its end", { executionId, error: String(cause) }),
  })
  return c.body(body, 200, { ...TEXT_PLAIN, "content-length": String(output.bytes) })
}

const params = { id: "the execution id, as `executionId` in the execute response" }

export const executionRoutes = routeGroup(({ store, approvals, logger, grep = Render.grepInPlace }, { downloads }) => ({
  store,
  approvals,
  logger,
  grep,
  downloads,
}))
  .route({
    method: "get",
    path: "/v1/executions",
    // and only the key's own, unless admin (core's listExecutionsPage)
    scope: "read",
    operationId: "listExecutions",
    tag: "executions",
    summary: "The executions this key may read, newest first",
    description:
      "A key without `admin` lists its own executions; `admin` (and every caller of a server without keys) lists every one. " +
      "Each is summed up without its texts: `resultChars` and `codePreview` stand for the result and the code (read them with GET /v1/executions/{id}). " +
      "The filters (`status`, `errorCode`, `source`, `keyId`) combine. " +
      "A full page names `nextBefore`: pass it as `before` for the next page, with the same filters.",
    query: executionsQuery,
    responses: { 200: { description: "a page of executions", json: executionsBody } },
    handler: async (c, { store }) => {
      const { limit = Auth.DEFAULT_LIST_EXECUTIONS, source, ...filters } = c.req.valid("query")
      // a key without admin lists its own, whatever it asks; a full page names the next (core's listExecutionsPage)
      const page = await Auth.listExecutionsPage(store, c.get("caller"), { limit, namespace: source, ...filters })
      return c.json(page satisfies ExecutionsBody)
    },
  })
  .route({
    method: "get",
    path: "/v1/executions/:id",
    scope: "read",
    operationId: "getExecution",
    tag: "executions",
    summary: "A stored execution with its tool calls",
    description:
      "A paused execution (`status` `paused`) comes with the approval it waits for; its resume overwrites the record with the run's end.",
    params,
    responses: { 200: { description: "the execution", json: executionBody } },
    errors: ["NotFound"],
    handler: async (c, { store, approvals }) => {
      c.set("executionId", c.req.param("id"))
      const execution = await Auth.readExecutionAs(store, c.get("caller"), c.req.param("id"))
      if (!execution) return sendError(c, new NotFound({ message: `no execution "${c.req.param("id")}"` }))
      if (execution.status !== "paused") return c.json({ execution } satisfies ExecutionBody)
      // what it waits for: read as the execution was, so its own key sees it too
      const [pending] = await approvals.list(c.get("caller"), {
        executionId: execution.id,
        status: "pending",
        limit: 1,
      })
      return c.json(
        (pending ? { execution, approval: approvalViewOf(pending) } : { execution }) satisfies ExecutionBody,
      )
    },
  })
  .route({
    method: "get",
    path: "/v1/executions/:id/output",
    scope: "read",
    operationId: "getExecutionOutput",
    tag: "executions",
    summary: "An execution's whole stored result text",
    description:
      "With no parameter, the text byte for byte as stored, sent as the client reads it (a key may have a few such downloads in progress at once). " +
      "With `offset`, `limit` or `charOffset`, a page of lines (a line over 4,000 characters is read in pieces: the page ends inside it and names " +
      "`nextCharOffset`); with `grep`, the matching lines (a long line shown around its match). Line numbers are 0-based.",
    params,
    query: outputQuery,
    responses: {
      200: {
        description: "the text, a page of it, or its matching lines",
        text: true,
        json: [outputPage, outputMatches],
      },
    },
    errors: [{ error: "NotFound", description: "no such execution, or it failed and stored no output" }, "OutputBusy"],
    handler: async (c, { store, logger, grep, downloads }) => {
      const id = c.req.param("id")
      c.set("executionId", id)
      const { offset, limit, charOffset, grep: pattern } = c.req.valid("query")
      // another key's execution is "no execution", word for word: a key cannot probe for others' ids
      const result = await Auth.readResultAs(store, c.get("caller"), id)
      if (!result) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      if (result.bytes === null)
        return sendError(c, new NotFound({ message: `execution "${id}" failed and stored no output` }))
      const output = Catalog.storedOutputPages(store, id, { ...result, bytes: result.bytes })
      if (pattern !== undefined) return search(c, grep, output, pattern)
      if (offset === undefined && limit === undefined && charOffset === undefined)
        return download(c, downloads, output, logger)
      // a page of lines is a small answer; finding it reads the whole text
      const execution = await Auth.readExecutionAs(store, c.get("caller"), id)
      if (execution?.resultText == null) return sendError(c, new NotFound({ message: `no execution "${id}"` }))
      const page = Render.readOutputLines(
        execution.resultText,
        offset ?? 0,
        limit ?? Render.DEFAULT_PAGE_LINES,
        charOffset ?? 0,
      )
      return c.json({ executionId: id, ...page } satisfies OutputPageBody)
    },
  })
