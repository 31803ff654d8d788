/**
 * Raw plugin result -> the result union (ARCHITECTURE.md: result contract), by the tool row's encoding. The
 * executor calls this before telemetry and shape observation see the value. Pure; never throws.
 */
import { okResult, type ToolResult } from "../result.js"
import { ResultEncodings } from "./encoding.js"
import type { ResultEncoding } from "./encoding.js"
import { decodeMcpCallToolResultV2 } from "./mcp-call-tool-result-v2.js"

export { decodeMcpCallToolResultV2, invalidResultCode } from "./mcp-call-tool-result-v2.js"
export { parseExactJson, type ExactJsonResult } from "./exact-json.js"

/**
 * Decodes `raw` under `encoding`. `direct`: `{ ok: true, data: raw }` with `raw` untouched (same reference), and
 * `meta` when the plugin gave one; an MCP result carries its own (`_meta`).
 */
export const decodeToolResult = (encoding: ResultEncoding, raw: unknown, meta?: unknown): ToolResult =>
  encoding === ResultEncodings.mcpCallToolResultV2 ? decodeMcpCallToolResultV2(raw) : okResult(raw, { meta })
