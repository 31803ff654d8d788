/**
 * `switchboard executions list|show|output`: stored executions, as `GET /v1/executions`, `/:id` and `/:id/output`
 * answer them. `list` prints a table, newest first (`--before` the last id for the next page); `show` a summary
 * and the tool calls; `output` the stored result text byte for byte, or with `--offset`/`--limit` a page of it by
 * line, or with `--grep` the lines that match, each after its 0-based line number and a tab. `--json`: the API's
 * answer.
 */
import type * as Catalog from "@switchboard/core/catalog"
import * as Render from "@switchboard/core/render"
import * as Auth from "@switchboard/core/auth"
import type { ExecutionAnswer, OutputPage } from "../catalog-client/catalog-client.js"
import type { executionsListFlags, executionsOutputFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import type { targetFlags } from "../cli/flags.js"
import { printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"
import { targetFlags as targetFlagsOf } from "./paused-text.js"
import { table, when } from "./table.js"

const wholeNumber = (flag: string, text: string | undefined, min: number, max: number) => {
  if (text === undefined) return undefined
  const value = Number(text)
  return Number.isInteger(value) && value >= min && value <= max
    ? value
    : usageError(`--${flag} must be a whole number from ${min} to ${max} (got "${text}")`)
}

const summary = ({ execution, approval }: ExecutionAnswer, on: string) => {
  const failed = execution.status === "error" ? ` (${execution.errorCode}): ${execution.errorMessage ?? ""}` : ""
  const result =
    execution.resultText === null
      ? "none"
      : `${execution.resultText.length} characters (switchboard executions output ${execution.id})`
  const fields: [string, string][] = [
    ["id", execution.id],
    ["status", `${execution.status}${failed}`],
    ["started", when(execution.startedAt)],
    ["duration", `${execution.durationMs} ms`],
    ["key", execution.keyId ?? "none"],
    ["tool calls", String(execution.toolCallCount)],
    ["result", result],
    // what a paused execution waits for, and where to decide it
    ...(approval
      ? ([
          [
            "waits for",
            `approval ${approval.id}: ${approval.tool} (${approval.reason}); switchboard approvals approve ${approval.id}${on}`,
          ],
        ] as [string, string][])
      : []),
  ]
  const code = execution.code
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => `  ${line}\n`)
    .join("")
  const calls =
    execution.calls.length === 0
      ? ""
      : `tool calls:\n${table(
          ["PATH", "OK", "ERROR", "DURATION", "DATA BYTES", "STARTED"],
          execution.calls.map((call) => [
            call.toolPath,
            call.ok ? "ok" : "error",
            call.errorCode ?? "",
            `${call.durationMs} ms`,
            call.dataBytes === null ? "" : String(call.dataBytes),
            when(call.startedAt),
          ]),
        )}`
  const logs = execution.logs.map((log) => `  [${log.level}] ${log.message}\n`).join("")
  const width = Math.max(...fields.map(([name]) => name.length)) + 2
  const head = fields.map(([name, value]) => `${name.padEnd(width)}${value}\n`).join("")
  return `${head}code:\n${code}${logs ? `logs:\n${logs}` : ""}${calls}`
}

const listed = (executions: Catalog.ExecutionSummary[]) =>
  table(
    ["ID", "STATUS", "STARTED", "DURATION", "CALLS", "RESULT", "KEY", "CODE"],
    executions.map((e) => [
      e.id,
      e.status === "error" ? `error (${e.errorCode})` : e.status,
      when(e.startedAt),
      `${e.durationMs} ms`,
      String(e.toolCallCount),
      e.resultChars === null ? "" : `${e.resultChars} chars`,
      e.keyId ?? "",
      e.codePreview,
    ]),
  )

/** where a page ended and how to read on, for a person: on stderr, so stdout holds the text's lines alone */
const pageFooter = (id: string, page: OutputPage) => {
  const shown = page.lines.length === 0 ? "no lines" : `lines ${page.offset}–${page.offset + page.lines.length - 1}`
  const next =
    page.nextOffset === null
      ? ""
      : `; next: switchboard executions output ${id} --offset ${page.nextOffset}` +
        (page.nextCharOffset === undefined ? "" : ` --char-offset ${page.nextCharOffset}`)
  return `${shown} of ${page.totalLines}${next}\n`
}

export const executionsListCommand = async ({ values }: CommandInput<typeof executionsListFlags>) => {
  const status = values.status
  if (status !== undefined && status !== "ok" && status !== "error" && status !== "paused")
    usageError(`--status must be ok, error or paused (got "${status}")`)
  const request = {
    limit: wholeNumber("limit", values.limit, 1, Auth.MAX_LIST_EXECUTIONS) ?? Auth.DEFAULT_LIST_EXECUTIONS,
    ...(values.before === undefined ? {} : { before: values.before }),
    ...(status === undefined ? {} : { status: status as "ok" | "error" | "paused" }),
  }
  return withCatalog(values, async (client) => {
    const page = await client.listExecutions(request)
    if (values.json) printJson(page)
    else {
      process.stdout.write(listed(page.executions))
      if (page.nextBefore !== undefined) {
        const flags = `${values.limit === undefined ? "" : ` --limit ${request.limit}`}${status === undefined ? "" : ` --status ${status}`}`
        process.stderr.write(`more: switchboard executions list${flags} --before ${page.nextBefore}\n`)
      }
    }
    return 0
  })
}

export const executionsShowCommand = async ({ values, args }: CommandInput<typeof targetFlags>) =>
  withCatalog(values, async (client) => {
    const answer = await client.getExecution(args[0]!)
    if (values.json) printJson(answer)
    else process.stdout.write(summary(answer, targetFlagsOf(values).decide))
    return 0
  })

export const executionsOutputCommand = async ({ values, args }: CommandInput<typeof executionsOutputFlags>) => {
  const id = args[0]!
  const paging = values.offset !== undefined || values.limit !== undefined || values["char-offset"] !== undefined
  if (paging && values.grep !== undefined) usageError("read a page (--offset, --limit) or --grep, not both")
  if (values.json && !paging && values.grep === undefined)
    usageError("--json needs --offset/--limit or --grep: without them the stored text is printed as it is")
  const page = {
    offset: wholeNumber("offset", values.offset, 0, 2 ** 31 - 1),
    limit: wholeNumber("limit", values.limit, 1, Render.MAX_PAGE_LINES),
    charOffset: wholeNumber("char-offset", values["char-offset"], 0, 2 ** 31 - 1),
  }
  return withCatalog(values, async (client) => {
    if (values.grep !== undefined) {
      const found = await client.grepOutput(id, values.grep)
      if (values.json) printJson(found)
      else {
        for (const match of found.matches) process.stdout.write(`${match.line}\t${match.text}\n`)
        if (found.truncated) process.stderr.write(`the search stopped at ${found.matches.length} matches\n`)
      }
    } else if (!paging) {
      process.stdout.write(await client.readOutput(id))
    } else {
      const read = await client.readOutputPage(id, page)
      if (values.json) printJson(read)
      else {
        read.lines.forEach((line, i) => process.stdout.write(`${read.offset + i}\t${line}\n`))
        process.stderr.write(pageFooter(id, read))
      }
    }
    return 0
  })
}
