/**
 * Result encodings stamped on each tool row (`tools.result_encoding`): how a plugin's raw result becomes the result
 * union (ARCHITECTURE.md: result contract). `direct`: the raw value is the data. `mcp-call-tool-result-v2`: an MCP `CallToolResult`,
 * decoded by ./mcp-call-tool-result-v2.ts.
 */
export const ResultEncodings = {
  direct: "direct",
  mcpCallToolResultV2: "mcp-call-tool-result-v2",
} as const
export type ResultEncoding = (typeof ResultEncodings)[keyof typeof ResultEncodings]

/**
 * The encoding a stored stamp means: NULL (a row synced before encodings existed) and a stamp this build does not
 * know (written by a newer build) both mean `direct`. The catalog store applies it once, as it reads a row
 * (`ToolRow.encoding`); nothing after it sees a stamp that may be NULL.
 */
export const effectiveEncoding = (stamp: string | null | undefined): ResultEncoding =>
  stamp === ResultEncodings.mcpCallToolResultV2 ? ResultEncodings.mcpCallToolResultV2 : ResultEncodings.direct

/**
 * Whether a row's declared output schema types its decoded `data`: its stamp is one this build knows (`direct` from
 * an OpenAPI source, or the MCP encoding). A NULL stamp (a row synced before encodings) or an unknown one is decoded
 * as `direct` too, but what it hands a script is whatever the plugin sent (an MCP envelope), which the schema does
 * not describe.
 */
export const declaresData = (row: { resultEncoding: string | null; encoding: ResultEncoding }): boolean =>
  row.resultEncoding === row.encoding
