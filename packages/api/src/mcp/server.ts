/**
 * The one builder of Switchboard's MCP server, shared by streamable HTTP (./http.ts) and stdio
 * (apps/server). Built on the SDK's low-level `Server` rather than `McpServer` because `execute`'s
 * description lists the connected namespaces, read from the store at every `tools/list`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js"
import { OPEN_CALLER, hasScope, internalError, missingScopeMessage } from "@switchboard/core"
import type { Caller } from "@switchboard/core"
import { mcpToolScopes } from "../scopes.js"
import { describeTool, callDescribe } from "./describe-tool.js"
import { callExecute, executeTool } from "./execute-tool.js"
import { callGrepOutput, callReadOutput, grepOutputTool, readOutputTool } from "./output-tools.js"
import type { McpServices } from "./services.js"
import { MCP_SERVER_INFO } from "./server-info.js"
import { errorResult } from "./tool-result.js"

const instructions =
  "Switchboard runs short scripts against a catalog of tools. Find tools with describe, then run a script with execute; " +
  "in a script, `await tools.<namespace>.<tool>(args)` gives `{ ok, data }` and you read `r.data`."

/**
 * The server never asks a client for input (no elicitation), so it never validates against a schema. This
 * stands in for the SDK's default Ajv validator, which would otherwise be built per request and which
 * compiles schemas with `new Function`, refused on Workers.
 */
const noSchemaValidation: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: "switchboard validates no client-supplied schema",
  }),
}

type Handler = (services: McpServices, args: unknown, signal: AbortSignal, caller: Caller) => Promise<CallToolResult>

const handlers: Record<string, Handler> = {
  execute: callExecute,
  describe: callDescribe,
  read_output: callReadOutput,
  grep_output: callGrepOutput,
}

/**
 * `caller`: who is asking (the API key of the HTTP request; `OPEN_CALLER` over stdio and on a server without
 * keys). Each tool needs the scope `mcpToolScopes` names; tools/list shows only the tools the caller may call,
 * and calling another answers an error result naming the scope.
 */
export const createMcpServer = (services: McpServices, caller: Caller = OPEN_CALLER): Server => {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions,
    jsonSchemaValidator: noSchemaValidation,
  })
  const allowed = (name: string) => hasScope(caller, mcpToolScopes[name] ?? "admin")

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // execute's description reads the store: only for a caller who sees it
    const execute = allowed("execute") ? [await executeTool(services)] : []
    return { tools: [...execute, describeTool, readOutputTool, grepOutputTool].filter((tool) => allowed(tool.name)) }
  })

  server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
    const handler = Object.hasOwn(handlers, params.name) ? handlers[params.name] : undefined
    // an unknown tool is a protocol error (the spec's -32602), not something the script or model did
    if (!handler)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool "${params.name}"; the tools are ${Object.keys(handlers).join(", ")}`,
      )
    const needed = mcpToolScopes[params.name] ?? "admin"
    if (!hasScope(caller, needed)) return errorResult(missingScopeMessage(`the ${params.name} tool`, needed, caller))
    try {
      return await handler(services, params.arguments, extra.signal, caller)
    } catch (cause) {
      return errorResult(internalError(services.logger, `MCP tool ${params.name}`, cause).message)
    }
  })

  return server
}
