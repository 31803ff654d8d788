/**
 * `execute`: runs a script and hands back the executor's own text (./run-result.ts). A run that pauses before a
 * call needing a person's approval is settled by ./settle.ts: asked about in the client, or answered as paused.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, Option } from "effect"
import { executeRequest } from "@switchboard/core"
import type { Caller, ServiceError } from "@switchboard/core"
import { mcpErrorText } from "../http-errors.js"
import type { AskApproval } from "./ask-approval.js"
import { EXECUTION_META, errorText } from "./run-result.js"
import type { McpServices } from "./services.js"
import { settle, settledOf } from "./settle.js"
import { errorResult, inputSchemaOf } from "./tool-result.js"

/** Listed namespaces are read at list time, so a client sees sources added since it connected. */
export const executeDescription = (namespaces: string[]) =>
  [
    "Run a script in a sandbox and get back what it returns: a string as its own text, anything else as JSON.",
    "Call tools with `const r = await tools.<namespace>.<tool>(args)`. Each call resolves to `{ ok: true, data, content?, meta? }` or `{ ok: false, error: { code, message } }`, and never throws for a tool failure.",
    "Read `r.data` (already parsed), never `r.content[0].text`. Return an image or audio block (or an array holding them), or pass one to `emit(block)`, to hand it back as media.",
    "console output follows the result in a second text block. A long result is cut; read the rest with read_output or grep_output.",
    "If the execution's record could not be stored, a last text block says so, and a cut result cannot be read further.",
    "A call that needs a person's approval pauses the script: a client with elicitation asks its person and gets the result here; else you get what waits, and resume {executionId} returns the result once someone decides.",
    namespaces.length > 0 ? `Connected namespaces: ${namespaces.join(", ")}.` : "No sources are connected yet.",
    "Call describe for tool names and their input and output types.",
  ].join("\n")

export const executeTool = async ({ store }: McpServices): Promise<Tool> => ({
  name: "execute",
  description: executeDescription((await store.listSources()).map((s) => s.namespace).sort()),
  inputSchema: inputSchemaOf(executeRequest),
  annotations: { title: "Run a script against the tool catalog", openWorldHint: true },
})

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
  services: McpServices,
  args: unknown,
  signal: AbortSignal,
  caller: Caller,
  ask?: AskApproval,
): Promise<CallToolResult> => {
  // the executor checks the request with its one definition, the same that wrote inputSchema
  const request = services.executor.parse(args ?? {})
  if (!request.ok) return errorResult(`invalid arguments: ${request.error.message}`)
  // the transport's signal interrupts the execution when the client goes away
  const exit = await Effect.runPromiseExit(services.executor.execute(request.value, caller), { signal })
  if (Exit.isFailure(exit)) return refusedResult(exit.cause)
  const response = exit.value
  if (response.executionId !== undefined) services.executed?.(response.executionId)
  // a run that paused: its person is asked where the client can ask, else the paused text says how to go on
  return settle(services, caller, settledOf(response), ask, signal)
}
