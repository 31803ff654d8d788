/** `tools/call` with a permissive result schema: core decodes the envelope, so it arrives here as sent. */
import { z } from "zod"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { ToolErrorCodes } from "@switchboard/core"
import type { InvokeContext, RawInvokeResult } from "@switchboard/core"
import type { McpConnection } from "./connection.js"

const AnyResult = z.unknown()

const UNKNOWN_TOOL = /unknown tool|tool .* not found|no such tool/i

/** Maps a failed request to a value the script can branch on. */
export const describeCallFailure = (cause: unknown, connection: McpConnection, tool: string): RawInvokeResult => {
  if (cause instanceof McpError) {
    if (cause.code === ErrorCode.RequestTimeout) return { ok: false, code: ToolErrorCodes.timeout, message: `"${tool}" did not answer in time: ${cause.message}` }
    if (cause.code === ErrorCode.ConnectionClosed || !connection.isOpen()) {
      const stderr = connection.stderrTail()
      return { ok: false, code: ToolErrorCodes.upstreamUnavailable, message: `the MCP server closed the connection during "${tool}"${stderr ? `; its stderr ended with: ${stderr.slice(-500)}` : ""}`, retryable: true }
    }
    if (cause.code === ErrorCode.InvalidParams && UNKNOWN_TOOL.test(cause.message)) {
      return { ok: false, code: ToolErrorCodes.toolNotFound, message: `the MCP server does not know "${tool}": ${cause.message}`, unknownTool: true }
    }
    return { ok: false, code: ToolErrorCodes.upstreamError, message: cause.message }
  }
  const message = cause instanceof Error ? cause.message : String(cause)
  return { ok: false, code: ToolErrorCodes.upstreamUnavailable, message: `calling "${tool}" failed: ${message}`, retryable: true }
}

/**
 * The SDK's McpServer answers an unknown tool with an `isError` result ("MCP error -32602: Tool X not found")
 * rather than a JSON-RPC error; both mean our catalog is behind the server's.
 */
const isUnknownToolResult = (raw: unknown, tool: string): boolean => {
  if (typeof raw !== "object" || raw === null || (raw as { isError?: unknown }).isError !== true) return false
  const content = (raw as { content?: unknown }).content
  const first = Array.isArray(content) && content.length === 1 ? (content[0] as { type?: unknown; text?: unknown }) : null
  return first?.type === "text" && typeof first.text === "string" && first.text.includes(`Tool ${tool} not found`) && /-32602/.test(first.text)
}

export const callTool = async (connection: McpConnection, tool: string, args: unknown, ctx: InvokeContext): Promise<RawInvokeResult> => {
  try {
    const raw = await connection.client.request(
      { method: "tools/call", params: { name: tool, arguments: args as Record<string, unknown> } },
      AnyResult,
      { timeout: ctx.timeoutMs, signal: ctx.signal },
    )
    if (isUnknownToolResult(raw, tool)) return { ok: false, code: ToolErrorCodes.toolNotFound, message: `the MCP server does not know "${tool}"`, unknownTool: true }
    return { ok: true, raw }
  } catch (cause) {
    return describeCallFailure(cause, connection, tool)
  }
}
