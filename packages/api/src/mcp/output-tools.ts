/**
 * `read_output` and `grep_output`: an execution's stored text by line range or by pattern. Line numbers are
 * the text's own, 0-based, the same numbers `offset` takes and GET /v1/executions/:id/output answers with.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import * as Catalog from "@switchboard/core/catalog"
import * as Render from "@switchboard/core/render"
import * as Auth from "@switchboard/core/auth"
import { isServiceError } from "@switchboard/core"
import { grepPattern, outputPageFields } from "../wire/executions.js"
import type { McpServices, McpToolCall } from "./services.js"
import { errorResult, inputSchemaOf, parseArgs, textResult } from "./tool-result.js"

const executionId = z.string().min(1).describe("the id named in a cut-off execute result")

/** The page fields are GET /v1/executions/{id}/output's query parameters, with the same ranges. */
const readInput = z.object({ executionId, ...outputPageFields })

const grepInput = z.object({ executionId, pattern: grepPattern.min(1) })

export const readOutputTool: Tool = {
  name: "read_output",
  description:
    "Read an execution's whole stored output by line range; each line comes as its 0-based number, a tab, its text.",
  inputSchema: inputSchemaOf(readInput),
  annotations: { title: "Read stored execution output", readOnlyHint: true },
}

export const grepOutputTool: Tool = {
  name: "grep_output",
  description:
    "Search an execution's whole stored output: the lines matching the pattern, each as its 0-based number, a tab, its text.",
  inputSchema: inputSchemaOf(grepInput),
  annotations: { title: "Search stored execution output", readOnlyHint: true },
}

const numbered = (lines: { line: number; text: string }[]) =>
  lines.map(({ line, text }) => `${line}\t${text}`).join("\n")

/** Another key's execution is "no execution", word for word, as on GET /v1/executions/:id. */
const storedText = async ({ store }: McpServices, caller: Auth.Caller, id: string) => {
  const execution = await Auth.readExecutionAs(store, caller, id)
  if (!execution) return { ok: false as const, message: `no execution "${id}"` }
  if (execution.resultText === null)
    return { ok: false as const, message: `execution "${id}" failed and stored no output` }
  return { ok: true as const, text: execution.resultText }
}

export const callReadOutput = async ({ services, caller }: McpToolCall, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(readInput, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const stored = await storedText(services, caller, parsed.value.executionId)
  if (!stored.ok) return errorResult(stored.message)
  const page = Render.readOutputLines(
    stored.text,
    parsed.value.offset ?? 0,
    parsed.value.limit ?? Render.DEFAULT_PAGE_LINES,
    parsed.value.charOffset ?? 0,
  )
  if (page.lines.length === 0)
    return textResult(`[no lines at offset ${page.offset}: the output has ${page.totalLines} lines]`)
  const last = page.offset + page.lines.length - 1
  const next =
    page.nextOffset === null
      ? "end of output"
      : page.nextCharOffset === undefined
        ? `next: offset ${page.nextOffset}`
        : `next: offset ${page.nextOffset}, charOffset ${page.nextCharOffset}`
  return textResult(
    numbered(page.lines.map((text, i) => ({ line: page.offset + i, text }))),
    `[lines ${page.offset}-${last} of ${page.totalLines}; ${next}]`,
  )
}

export const callGrepOutput = async ({ services, caller }: McpToolCall, args: unknown): Promise<CallToolResult> => {
  const parsed = parseArgs(grepInput, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const id = parsed.value.executionId
  // the text itself is read only once the search has its turn, a page at a time (render/read-output.ts GrepRunner)
  const result = await Auth.readResultAs(services.store, caller, id)
  if (!result) return errorResult(`no execution "${id}"`)
  if (result.bytes === null) return errorResult(`execution "${id}" failed and stored no output`)
  const output = Catalog.storedOutputPages(services.store, id, { ...result, bytes: result.bytes })
  let found: Awaited<ReturnType<NonNullable<McpServices["grep"]>>>
  try {
    found = await (services.grep ?? Render.grepInPlace)(output, parsed.value.pattern)
  } catch (cause) {
    if (isServiceError(cause)) return errorResult(cause.message)
    throw cause
  }
  if (!found.ok) return errorResult(`${found.code}: ${found.message}`)
  if (found.matches.length === 0)
    return textResult(`[no line matches /${parsed.value.pattern}/ in ${found.totalLines} lines]`)
  const more = found.truncated ? "; stopped at the first matches, narrow the pattern for the rest" : ""
  return textResult(numbered(found.matches), `[${found.matches.length} matching lines of ${found.totalLines}${more}]`)
}
