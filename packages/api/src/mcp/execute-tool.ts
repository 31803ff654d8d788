/**
 * `execute`: runs a script and hands back the executor's own text. That text was rendered once by core's
 * renderForModel and fitted under the inline cap; it is passed through untouched, never re-rendered or quoted.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, Option } from "effect"
import { executeRequest } from "@switchboard/core"
import type { Caller, LogEntry, RunError, ServiceError } from "@switchboard/core"
import type { McpServices } from "./services.js"
import { mcpErrorText } from "../http-errors.js"
import { errorResult, inputSchemaOf, textResult } from "./tool-result.js"

/** Listed namespaces are read at list time, so a client sees sources added since it connected. */
export const executeDescription = (namespaces: string[]) =>
  [
    "Run a script in a sandbox and get back what it returns: a string as its own text, anything else as JSON.",
    "Call tools with `const r = await tools.<namespace>.<tool>(args)`. Each call resolves to `{ ok: true, data, content?, meta? }` or `{ ok: false, error: { code, message } }`, and never throws for a tool failure.",
    "Read `r.data` (already parsed), never `r.content[0].text`. Return an image or audio block (or an array holding them), or pass one to `emit(block)`, to hand it back as media.",
    "console output follows the result in a second text block. A long result is cut; read the rest with read_output or grep_output.",
    "If the execution's record could not be stored, a last text block says so, and a cut result cannot be read further.",
    namespaces.length > 0 ? `Connected namespaces: ${namespaces.join(", ")}.` : "No sources are connected yet.",
    "Call describe for tool names and their input and output types.",
  ].join("\n")

export const executeTool = async ({ store }: McpServices): Promise<Tool> => ({
  name: "execute",
  description: executeDescription((await store.listSources()).map((s) => s.namespace).sort()),
  inputSchema: inputSchemaOf(executeRequest),
  annotations: { title: "Run a script against the tool catalog", openWorldHint: true },
})

const logsText = (logs: LogEntry[]) => `logs:\n${logs.map((l) => `[${l.level}] ${l.message}`).join("\n")}`

const errorText = (error: RunError) => {
  const at =
    error.line === undefined
      ? ""
      : ` (line ${error.line}${error.column === undefined ? "" : `, column ${error.column}`})`
  return `error (${error.code})${at}: ${error.message}`
}

/** An execution that did not run: refused for want of room (Overloaded), or cut off because the client went away. */
const refusedResult = (cause: Cause.Cause<ServiceError>): CallToolResult => {
  const error = Cause.findErrorOption(cause)
  if (Option.isNone(error) && !Cause.hasInterruptsOnly(cause)) throw Cause.squash(cause)
  const result = Option.isSome(error)
    ? errorResult(mcpErrorText(error.value))
    : errorResult(errorText({ code: "aborted", message: "the client went away" }))
  result._meta = { [EXECUTION_META]: { stored: false } }
  return result
}

export const callExecute = async (
  { executor, executed }: McpServices,
  args: unknown,
  signal: AbortSignal,
  caller: Caller,
): Promise<CallToolResult> => {
  // the executor checks the request with its one definition, the same that wrote inputSchema
  const request = executor.parse(args ?? {})
  if (!request.ok) return errorResult(`invalid arguments: ${request.error.message}`)
  // the transport's signal interrupts the execution when the client goes away
  const exit = await Effect.runPromiseExit(executor.execute(request.value, caller), { signal })
  if (Exit.isFailure(exit)) return refusedResult(exit.cause)
  const response = exit.value
  if (response.executionId !== undefined) executed?.(response.executionId)
  const logs = response.logs.length > 0 ? [logsText(response.logs)] : []
  // a record that could not be stored is said in the text a model reads, after the result and its logs
  const warning = response.warning === undefined ? [] : [`warning: ${response.warning}`]
  const result = !response.ok
    ? errorResult(errorText(response.error), ...logs, ...warning)
    : response.text === "" && response.media
      ? textResult(...logs, ...warning)
      : textResult(response.text, ...logs, ...warning)
  // images and audio go as native blocks after the text, never as base64 inside it
  if (response.ok && response.media) result.content.push(...(response.media as CallToolResult["content"]))
  result._meta = {
    [EXECUTION_META]: response.stored ? { stored: true, executionId: response.executionId } : { stored: false },
  }
  return result
}

/** `_meta` key of an execute result: whether its record was stored, and its id when it was */
export const EXECUTION_META = "switchboard/execution"
