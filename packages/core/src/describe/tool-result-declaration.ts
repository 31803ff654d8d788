/**
 * The result contract as describe prints it: the same types as ../result.ts, written out so a model can paste
 * them above a script. The error codes come from `ToolErrorCodes`; a compiler test pins that these types are
 * identical to the ones in result.ts.
 */
import { ToolErrorCodes } from "../result.js"

const errorCodes = Object.values(ToolErrorCodes)
  .map((code) => JSON.stringify(code))
  .join(" | ")

export const TOOL_RESULT_DECLARATION = `/** An MCP content block, kept as the server sent it. */
type ContentBlock = { type: string; [key: string]: unknown }

type ToolErrorCode = ${errorCodes}

interface ToolError {
  code: ToolErrorCode | (string & {})
  message: string
  data?: unknown
  content?: ContentBlock[]
  meta?: unknown
}

/** What every tool call resolves to. It never rejects for a tool failure: check \`ok\`, then read \`data\`. */
type ToolResult<T = unknown> =
  | { ok: true; data: T; content?: ContentBlock[]; meta?: unknown }
  | { ok: false; error: ToolError }`

/** Names the declaration above takes; no generated alias may reuse them. */
export const TOOL_RESULT_NAMES = ["ContentBlock", "ToolErrorCode", "ToolError", "ToolResult", "tools"] as const
