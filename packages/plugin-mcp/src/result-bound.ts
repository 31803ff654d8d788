/**
 * The bound on a tool result's keys and elements (`maxToolResultNodes`), one definition for every transport: the
 * stdio reader counts a tools/call answer's line before parsing it (./stdout-reader.ts) and hands on this error
 * in its place, which `callTool` reads back as `tool_result_too_large`.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"

/** Keys and elements a tool result may hold (default): a value past it would hold the main thread too long. */
export const DEFAULT_MAX_TOOL_RESULT_NODES = 50_000

/** marks our own error in the place of a result past the bound; no server sends it */
const MARK = "switchboard/toolResultTooLarge"
/** JSON-RPC's "internal error": the client, not the server, refused the answer */
const INTERNAL_ERROR = -32603

export interface ResultTooLarge {
  nodes: number
  maxNodes: number
}

export const toolResultTooLarge = (id: string | number, nodes: number, maxNodes: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  error: {
    code: INTERNAL_ERROR,
    message: `the result has more than ${maxNodes} keys and elements`,
    data: { [MARK]: { nodes, maxNodes } satisfies ResultTooLarge },
  },
})

/** the bound an McpError's data says was passed, when it is our own refusal */
export const resultTooLargeOf = (data: unknown): ResultTooLarge | undefined => {
  if (typeof data !== "object" || data === null) return undefined
  const found = (data as Record<string, unknown>)[MARK]
  if (typeof found !== "object" || found === null) return undefined
  const { nodes, maxNodes } = found as Record<string, unknown>
  return typeof nodes === "number" && typeof maxNodes === "number" ? { nodes, maxNodes } : undefined
}
