/** The bodies of /v1/executions: a page of executions, a stored execution, and its output by page or by pattern. */
import { z } from "zod"
import * as Render from "@switchboard/core/render"
import * as Auth from "@switchboard/core/auth"
import { wholeNumber } from "@switchboard/core"
import { logEntry } from "./execute.js"
import { approvalView } from "./approval-schema.js"

/** The largest offset into stored text (lines or characters): more than any stored result holds. */
export const MAX_TEXT_OFFSET = 2 ** 31 - 1

/** A page of stored output: the query of GET /v1/executions/{id}/output and the arguments of MCP `read_output`. */
export const outputPageFields = {
  offset: wholeNumber("offset", { min: 0, max: MAX_TEXT_OFFSET })
    .optional()
    .describe("first line to return, 0-based (default 0)"),
  limit: wholeNumber("limit", { min: 1, max: Render.MAX_PAGE_LINES })
    .optional()
    .describe(`how many lines (default ${Render.DEFAULT_PAGE_LINES}, at most ${Render.MAX_PAGE_LINES})`),
  charOffset: wholeNumber("charOffset", { min: 0, max: MAX_TEXT_OFFSET })
    .optional()
    .describe(
      "where in the first line to start: a line over 4,000 characters is read in pieces, each page naming where the next starts",
    ),
}

export const grepPattern = z
  .string()
  .describe(
    "an RE2 regular expression (JavaScript-like syntax without lookaround or backreferences), matched against each line",
  )

export const outputQuery = z.object({ ...outputPageFields, grep: grepPattern.optional() })

export const toolCall = z.object({
  executionId: z.string(),
  toolPath: z.string(),
  encoding: z.string(),
  startedAt: z.int().describe("milliseconds since the epoch"),
  durationMs: z.int(),
  ok: z.boolean(),
  errorCode: z.string().nullable(),
  dataBytes: z.int().nullable(),
  outputSchemaError: z
    .string()
    .nullable()
    .optional()
    .describe("set when the data did not match the declared output schema (it was delivered anyway)"),
})

export const execution = z.object({
  id: z.string(),
  code: z.string(),
  status: z
    .enum(["ok", "error", "paused"])
    .describe(
      "paused: waiting for a person's decision on a call (GET /v1/approvals); its resume overwrites this record",
    ),
  startedAt: z.int().describe("milliseconds since the epoch"),
  durationMs: z.int(),
  resultText: z.string().nullable().describe("the whole result text, never cut"),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  logs: z.array(logEntry),
  toolCallCount: z.int(),
  keyId: z
    .string()
    .nullable()
    .describe(
      "the id of the API key that made it (`switchboard keys list`); null when made without a key. A key without `admin` reads only its own.",
    ),
  keepUntil: z
    .int()
    .nullable()
    .optional()
    .describe(
      "milliseconds since the epoch: kept at least until then whatever the server's retention, " +
        "because the answer cut the result and pointed at read_output (an hour); null: no hold",
    ),
  calls: z.array(toolCall),
})

/** longer than any execution id (a UUID is 36 characters): a cursor is one */
const MAX_CURSOR_CHARS = 100

const statusFilter = z.enum(["ok", "error", "paused"], {
  error: (issue) => `status must be "ok", "error" or "paused" (got ${JSON.stringify(issue.input)})`,
})

const cursorError = (issue: { input?: unknown }) =>
  `before must be an execution id, as \`nextBefore\` names it (got ${JSON.stringify(issue.input)})`

/** longer than any error code, namespace or key id */
const MAX_FILTER_CHARS = 200

const filterText = (name: string, what: string) => {
  const error = (issue: { input?: unknown }) =>
    `${name} must be ${what}, of 1 to ${MAX_FILTER_CHARS} characters (got ${JSON.stringify(issue.input)})`
  return z.string({ error }).min(1, { error }).max(MAX_FILTER_CHARS, { error })
}

export const executionsQuery = z.object({
  limit: wholeNumber("limit", { min: 1, max: Auth.MAX_LIST_EXECUTIONS })
    .optional()
    .describe(
      `how many executions, newest first (default ${Auth.DEFAULT_LIST_EXECUTIONS}, at most ${Auth.MAX_LIST_EXECUTIONS})`,
    ),
  before: z
    .string({ error: cursorError })
    .min(1, { error: cursorError })
    .max(MAX_CURSOR_CHARS, { error: cursorError })
    .optional()
    .describe("only executions older than this one: the `nextBefore` of the page before"),
  status: statusFilter
    .optional()
    .describe("only executions that returned (`ok`), failed (`error`) or wait for an approval (`paused`)"),
  errorCode: filterText("errorCode", "an error code, such as timeout")
    .optional()
    .describe("only executions that failed with this error code (`errorCode` of a listed execution)"),
  source: filterText("source", "a source's namespace")
    .optional()
    .describe("only executions that called a tool of this source (its namespace), whatever the call's outcome"),
  keyId: filterText("keyId", "an API key's id")
    .optional()
    .describe("only the executions of this API key (its id); a key without `admin` lists its own whatever it names"),
})

export const executionSummary = execution
  .pick({
    id: true,
    status: true,
    startedAt: true,
    durationMs: true,
    errorCode: true,
    toolCallCount: true,
    keyId: true,
  })
  .extend({
    resultChars: z
      .int()
      .nullable()
      .describe(
        "the stored result text's length in UTF-16 code units (as `charOffset` counts); null when the run stored none",
      ),
    codePreview: z
      .string()
      .max(120)
      .describe("the script's first line that is not blank, without indentation, at most 120 characters"),
  })

export const executionsBody = z.object({
  executions: z.array(executionSummary).max(Auth.MAX_LIST_EXECUTIONS).describe("newest first"),
  nextBefore: z
    .string()
    .optional()
    .describe(
      "present when older executions may pass the filters: pass it as `before`, with the same filters, for the next page (which may " +
        "be empty); absent on the last page. Under two filters or more a page looks at a bounded number of executions, so it may hold " +
        "fewer than `limit`, or none, and still name a next",
    ),
})
export type ExecutionsBody = z.input<typeof executionsBody>

export const executionBody = z.object({
  execution,
  approval: approvalView.optional().describe("when the execution is paused: the approval it waits for"),
})
export type ExecutionBody = z.input<typeof executionBody>

export const outputPage = z.object({
  executionId: z.string(),
  offset: z.int().describe("0-based line of lines[0]"),
  charOffset: z.int().describe("where in that line lines[0] starts (0 unless a long line is read in pieces)"),
  lines: z.array(z.string()).max(Render.MAX_PAGE_LINES),
  totalLines: z.int(),
  nextOffset: z.int().nullable().describe("where the next page starts; null at the end"),
  nextCharOffset: z
    .int()
    .optional()
    .describe(
      "present when the page ends inside a line longer than 4,000 characters: pass it as charOffset with offset=nextOffset",
    ),
})
export type OutputPageBody = z.input<typeof outputPage>

export const outputMatches = z.object({
  executionId: z.string(),
  matches: z.array(z.object({ line: z.int().describe("0-based"), text: z.string() })).max(Render.MAX_GREP_MATCHES),
  totalLines: z.int(),
  truncated: z.boolean().describe(`true when the search stopped at ${Render.MAX_GREP_MATCHES} matches`),
})
export type OutputMatchesBody = z.input<typeof outputMatches>
