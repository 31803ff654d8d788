/**
 * What the bench counts, and with what: OpenAI's o200k_base encoding from gpt-tokenizer (a pure JavaScript BPE,
 * no download at run time). It stands in for the model's own tokenizer, which for most models is not published:
 * the figures are comparable with each other, not a bill.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"

export const TOKENIZER = "gpt-tokenizer 4.0.0, o200k_base"

/** Special tokens' spellings in a tool's text are plain text to a model, not control tokens. */
const plain = { disallowedSpecial: new Set<string>() }

export const tokensOf = (text: string): number => countTokens(text, plain)

/**
 * A tool as a client hands it to a model: its name, description and input schema, as the server gave them.
 * Titles, annotations and output schemas are left out on both sides: most clients do not pass them on.
 */
export const listedTool = ({ name, description, inputSchema }: Tool) => ({ name, description, inputSchema })

/** A `tools/list` as JSON, plus the server's instructions (the initialize result), which clients add too. */
export const listingTokens = (tools: readonly Tool[], instructions?: string): number =>
  tokensOf(JSON.stringify(tools.map(listedTool))) + (instructions ? tokensOf(instructions) : 0)

/** The call the model writes: the tool's name and its arguments. */
export const callTokens = (name: string, args: unknown): number => tokensOf(JSON.stringify({ name, arguments: args }))

/** A result as the MCP SDK returns it: the envelope, structured content and the JSON-quoted text blocks. */
export const envelopeTokens = (result: CallToolResult): number => {
  const { _meta: _, ...visible } = result
  return tokensOf(JSON.stringify(visible))
}

/** The text blocks of a result alone, one after the other: what a model reads of a Switchboard answer. */
export const resultText = (result: CallToolResult): string =>
  result.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join("\n")

export const textTokens = (result: CallToolResult): number => tokensOf(resultText(result))
