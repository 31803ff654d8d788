/**
 * The one builder of Switchboard's MCP server, shared by streamable HTTP (./http.ts) and stdio
 * (apps/server). Built on the SDK's low-level `Server` rather than `McpServer` because `execute`'s
 * description lists the connected namespaces, read from the store at every `tools/list`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import * as Auth from "@switchboard/core/auth"
import { internalError } from "@switchboard/core"
import { mcpToolScopes } from "./tool-scopes.js"
import { askThrough, decisionValidator } from "./ask-approval.js"
import { describeTool, callDescribe } from "./describe-tool.js"
import { callExecute, executeTool } from "./execute-tool.js"
import { callResume, resumeTool } from "./resume-tool.js"
import { callGrepOutput, callReadOutput, grepOutputTool, readOutputTool } from "./output-tools.js"
import type { McpServices, McpToolCall } from "./services.js"
import { MCP_SERVER_INFO } from "./server-info.js"
import { errorResult } from "./tool-result.js"

/** Read by clients that show a server's instructions; execute's description carries the rules in full. */
const instructions =
  "Switchboard runs scripts against a catalog of tools: find tools with describe, then run a script with execute " +
  "(each call's result `r`: read `r.data`)."

type Handler = (call: McpToolCall, args: unknown) => Promise<CallToolResult>

const handlers: Record<string, Handler> = {
  execute: callExecute,
  resume: callResume,
  describe: callDescribe,
  read_output: callReadOutput,
  grep_output: callGrepOutput,
}

export interface McpServerOptions {
  /**
   * false: never ask the client anything, whatever it declared. The stateless HTTP endpoint passes it: it cannot
   * carry a request from the server (./ask-approval.ts). Default: ask a client that declared form elicitation.
   */
  elicitation?: boolean
}

/**
 * `caller`: who is asking (the API key of the HTTP request; `OPEN_CALLER` over stdio and on a server without
 * keys). Each tool needs the scope `mcpToolScopes` names; tools/list shows only the tools the caller may call,
 * and calling another answers an error result naming the scope.
 */
export const createMcpServer = (
  services: McpServices,
  caller: Auth.Caller = Auth.OPEN_CALLER,
  options: McpServerOptions = {},
): Server => {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions,
    jsonSchemaValidator: decisionValidator,
  })
  const allowed = (name: string) => Auth.hasScope(caller, mcpToolScopes[name] ?? "admin")
  // read at each call: the client declares its capabilities at initialize, after the server is built
  const canAsk = () => options.elicitation !== false && server.getClientCapabilities()?.elicitation?.form !== undefined

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // execute's description reads the store: only for a caller who sees it
    const execute = allowed("execute") ? [await executeTool(services)] : []
    return {
      tools: [...execute, resumeTool, describeTool, readOutputTool, grepOutputTool].filter((tool) =>
        allowed(tool.name),
      ),
    }
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
    if (!Auth.hasScope(caller, needed))
      return errorResult(Auth.missingScopeMessage(`the ${params.name} tool`, needed, caller))
    try {
      const ask = canAsk() ? askThrough(server, extra.requestId) : undefined
      return await handler({ services, caller, signal: extra.signal, ask }, params.arguments)
    } catch (cause) {
      return errorResult(internalError(services.logger, `MCP tool ${params.name}`, cause).message)
    }
  })

  return server
}
