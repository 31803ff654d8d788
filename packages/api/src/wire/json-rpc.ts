/** What /mcp answers: JSON-RPC 2.0 messages, whose shapes the MCP specification owns. */
import { z } from "zod"

export const jsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.int(), z.null()]).optional(),
    method: z.string().optional(),
    params: z.looseObject({}).optional(),
    result: z.unknown().optional(),
    error: z.looseObject({ code: z.int(), message: z.string() }).optional(),
  })
  .describe("an MCP JSON-RPC 2.0 message (https://modelcontextprotocol.io/specification)")

/** A POST to /mcp: one message, or a batch of them. */
export const jsonRpcRequest = z.union([jsonRpcMessage, z.array(jsonRpcMessage)])
