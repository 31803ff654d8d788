/** What the parts of a tool call (./tool-invoker.ts) hand each other. */
import type { SourceRow, ToolRow } from "../catalog/rows.js"
import { ResultEncodings } from "../encodings/encoding.js"
import type { EffectivePolicy } from "../policy/policy.js"
import type { ToolResult } from "../result.js"

/**
 * What one call came to: the result and, for telemetry, the encoding it was decoded under, the source the path
 * resolved to and the time that source's plugin took (upstream).
 */
export interface CallOutcome {
  result: ToolResult
  encoding: string
  outputSchemaError?: string | null
  dataBytes?: number | null
  source?: string
  upstreamMs?: number
}

/** A call that needs a person's decision first: it was not made. */
export interface PauseOutcome {
  pause: EffectivePolicy
}

/** The source, tool row and policy a path resolved to, kept for the rest of the execution (Execution.resolved). */
export interface ResolvedTool {
  source: SourceRow
  tool: ToolRow
  policy: EffectivePolicy
}

/** An answer made without a tool row: its result is the data as it is. */
export const directOutcome = (result: ToolResult): CallOutcome => ({ result, encoding: ResultEncodings.direct })
