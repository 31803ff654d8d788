/**
 * Raw plugin result -> the result union (ARCHITECTURE.md: result contract), by the tool row's `result_encoding`.
 * `executor.execute` calls this before telemetry and shape observation see the value. Pure; never throws.
 */
import { okResult, type ToolResult } from "../result.js"
import { effectiveEncoding, ResultEncodings } from "./encoding.js"
import { decodeMcpCallToolResultV2 } from "./mcp-call-tool-result-v2.js"

export { decodeMcpCallToolResultV2, invalidResultCode } from "./mcp-call-tool-result-v2.js"
export { parseExactJson, type ExactJsonResult } from "./exact-json.js"

/**
 * Decodes `raw` under the row's encoding stamp. NULL, `direct` and stamps this build does not know (written by a
 * newer build) all mean `direct`: `{ ok: true, data: raw }` with `raw` untouched (same reference).
 */
export const decodeToolResult = (encoding: string | null | undefined, raw: unknown): ToolResult => {
  switch (effectiveEncoding(encoding)) {
    case ResultEncodings.mcpCallToolResultV2:
      return decodeMcpCallToolResultV2(raw)
    case ResultEncodings.direct:
      return okResult(raw)
  }
}
