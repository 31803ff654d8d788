/**
 * `execute`: runs a script and hands back the executor's own text (./run-result.ts). A run that pauses before a
 * call needing a person's approval is settled by ./settle.ts: asked about in the client, or answered as paused.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { executeRequest, isServiceError } from "@switchboard/core"
import type { ServiceError } from "@switchboard/core"
import { mcpErrorText } from "../http-errors.js"
import { EXECUTION_META } from "./run-result.js"
import type { McpServices, McpToolCall } from "./services.js"
import { settle, settledOf } from "./settle.js"
import { errorResult, inputSchemaOf } from "./tool-result.js"
import type { JsonSchema } from "../wire/json-schema.js"

/** Past this many namespaces the listing names the first and counts the rest, so it stays short as a catalog grows. */
const LISTED_NAMESPACES = 20

const namespacesLine = (namespaces: string[]) => {
  if (namespaces.length === 0) return "No sources are connected yet."
  const more = namespaces.length - LISTED_NAMESPACES
  const named = namespaces.slice(0, LISTED_NAMESPACES).join(", ")
  return more > 0 ? `Connected namespaces: ${named} and ${more} more.` : `Connected namespaces: ${named}.`
}

/**
 * Listed namespaces are read at list time, so a client sees sources added since it connected. Every `tools/list`
 * puts this text in front of the model: each sentence is one it needs to write a script or to act on an answer.
 */
export const executeDescription = (namespaces: string[]) =>
  [
    "Run a script in a sandbox; what it returns comes back, a string as text, anything else as JSON.",
    "`const r = await tools.<namespace>.<tool>(args)` resolves to `{ ok: true, data, content?, meta? }` or " +
      "`{ ok: false, error: { code, message } }`, never throws. Read `r.data` (parsed), never `r.content[0].text`.",
    "Return an image or audio block, or pass it to `emit(block)`, to hand it back as media. A long result is cut: read_output or grep_output read the rest.",
    "A call needing a person's approval pauses the script; resume {executionId} returns its result once someone decides.",
    namespacesLine(namespaces),
    "describe finds tools and gives their types.",
  ].join("\n")

/**
 * The arguments as listed: `limits` by its keys alone, which name what each bounds and its unit, and no top-level
 * `timeoutMs`, which `limits.timeoutMs` does the same as (both are still taken). Each limit's meaning and server
 * default are in the OpenAPI document; a model seldom lowers one, and a bad value is answered with a message
 * naming the limit and its range. The executor checks the request against the whole schema.
 */
const listedInputSchema = () => {
  const schema = inputSchemaOf(executeRequest) as { type: "object"; properties: Record<string, JsonSchema> }
  const { timeoutMs: _, limits, ...rest } = schema.properties
  const keys = Object.keys((limits as { properties: Record<string, JsonSchema> }).properties)
  const description = `lowers (never raises) the server's limits for this run: any of ${keys.join(", ")}, each a whole number`
  return { ...schema, properties: { ...rest, limits: { type: "object", description } } }
}

export const executeTool = async ({ store }: McpServices): Promise<Tool> => ({
  name: "execute",
  description: executeDescription((await store.listSources()).map((s) => s.namespace).sort()),
  inputSchema: listedInputSchema(),
  annotations: { title: "Run a script against the tool catalog", openWorldHint: true },
})

/** An execution that did not run: refused for want of room (Overloaded). */
const refusedResult = (error: ServiceError): CallToolResult => {
  const result = errorResult(mcpErrorText(error))
  result._meta = { [EXECUTION_META]: { stored: false } }
  return result
}

export const callExecute = async (call: McpToolCall, args: unknown): Promise<CallToolResult> => {
  const { services, caller, signal } = call
  // the executor checks the request with its one definition, the same that wrote inputSchema
  const request = services.executor.parse(args ?? {})
  if (!request.ok) return errorResult(`invalid arguments: ${request.error.message}`)
  // the plain path, as HTTP's execute (no fiber per execute): the transport's signal aborts the run and its tool
  // calls when the client goes away, and the execution is still recorded
  const response = await services.executor.run(request.value, signal, caller)
  if (isServiceError(response)) return refusedResult(response)
  if (response.executionId !== undefined) services.executed?.(response.executionId)
  // a run that paused: its person is asked where the client can ask, else the paused text says how to go on
  return settle(call, settledOf(response))
}
