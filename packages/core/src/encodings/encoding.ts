/**
 * Result encodings stamped on each tool row (`tools.result_encoding`). NULL in the database means `direct`.
 * A row's encoding names how a plugin's raw result becomes the result union (ARCHITECTURE.md: result contract).
 */
export const ResultEncodings = {
  direct: "direct",
  mcpCallToolResultV2: "mcp-call-tool-result-v2",
} as const
export type ResultEncoding = (typeof ResultEncodings)[keyof typeof ResultEncodings]

/** The encoding a row actually runs under: NULL and unknown stamps from a newer build both mean `direct`. */
export const effectiveEncoding = (stamp: string | null | undefined): ResultEncoding =>
  stamp === ResultEncodings.mcpCallToolResultV2 ? ResultEncodings.mcpCallToolResultV2 : ResultEncodings.direct
