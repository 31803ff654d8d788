/**
 * `mcp-call-tool-result-v2`: an MCP `tools/call` JSON-RPC `result` (a `CallToolResult`) -> the result union
 * (ARCHITECTURE.md: result contract). Pure, and it never throws: the raw value may be anything a server sent.
 *
 *   1. `isError: true` -> ok:false, code `upstream_error`; message = the text blocks' texts joined by "\n"
 *      ("tool reported an error" when that is empty); `structuredContent` -> error.data; every block ->
 *      error.content; `_meta` -> error.meta.
 *   2. `structuredContent` present (any value but `undefined`, `null` included) -> it is `data`. Text blocks that
 *      merely serialize it are dropped (see `isDuplicateText`); the other blocks ride in `content`, in order.
 *   3. else exactly one block, a text block whose text is exact JSON (./exact-json.ts) -> the parsed value.
 *   4. else exactly one text block -> its string, unaltered (empty string and lone surrogates included).
 *   5. else -> the ordered array of blocks; no blocks at all -> `null`.
 *   Always: `_meta` -> `meta`; an empty `content` is omitted.
 *
 * Tolerance decisions (the spec is silent on malformed results):
 *   - A raw value that is not a plain object (null, an array, a scalar, undefined) is not a `CallToolResult`:
 *     ok:false with code `invalid_result`; the raw value, if not undefined, goes to error.data.
 *   - Only `isError === true` is an error; any other value (missing, false, "true", 1) is success.
 *   - `content` missing or null -> no blocks. A non-array object `content` is taken as one bare block (a server
 *     that forgot the list); any other non-array `content` (a string, a number) -> no blocks.
 *   - Entries of `content` that are not plain objects (null, scalars, arrays) are skipped, so every block we hand
 *     on is at least an object. Object blocks are passed through by reference as received: unknown types,
 *     missing fields and bad base64 included (nothing is validated).
 *   - A "text block" is an object with `type: "text"` and a string `text`. `{type:"text"}` without a string
 *     `text` is an ordinary (non-text) block: it is kept, but never parsed or joined into a message.
 *   - Every text block that qualifies as a duplicate of `structuredContent` is dropped, not just the first.
 *   - Other top-level keys of the result (e.g. 2026-07-28 `resultType`) are not carried over.
 */
import { errResult, okResult, ToolErrorCodes, type ContentBlock, type ToolResult } from "../result.js"
import { parseExactJson } from "./exact-json.js"
import { isRecord } from "../is-record.js"

/** Error code for a raw value that is not a `CallToolResult` object at all. */
export const invalidResultCode = "invalid_result"

const noTextErrorMessage = "tool reported an error"

type JsonObject = { [key: string]: unknown }
type TextBlock = ContentBlock & { type: "text"; text: string }

const isTextBlock = (block: ContentBlock): block is TextBlock => block.type === "text" && typeof block.text === "string"

const describeType = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v)

/** Decodes one MCP `tools/call` result. Never throws. */
export const decodeMcpCallToolResultV2 = (raw: unknown): ToolResult => {
  if (!isRecord(raw)) {
    return errResult(invalidResultCode, `MCP tools/call result is not an object (got ${describeType(raw)})`, {
      data: raw,
    })
  }
  try {
    return decodeObject(raw)
  } catch (cause) {
    // Only reachable through exotic inputs (throwing getters, proxies); JSON data never gets here.
    return errResult(invalidResultCode, `MCP tools/call result could not be decoded: ${String(cause)}`)
  }
}

const decodeObject = (raw: JsonObject): ToolResult => {
  const blocks = blocksOf(raw.content)
  const meta = raw._meta
  const structured = raw.structuredContent

  if (raw.isError === true) {
    const message = blocks
      .filter(isTextBlock)
      .map((block) => block.text)
      .join("\n")
    return errResult(ToolErrorCodes.upstreamError, message === "" ? noTextErrorMessage : message, {
      data: structured,
      content: blocks,
      meta,
    })
  }

  if (structured !== undefined) {
    const rest = blocks.filter((block) => !(isTextBlock(block) && isDuplicateText(block.text, structured)))
    return okResult(structured, { content: rest, meta })
  }

  if (blocks.length === 1) {
    const only = blocks[0]!
    if (isTextBlock(only)) {
      const exact = parseExactJson(only.text)
      return okResult(exact.ok ? exact.value : only.text, { meta })
    }
  }

  return okResult(blocks.length === 0 ? null : blocks, { meta })
}

/** The blocks of `content`, in order, skipping entries that are not objects (see the header). */
const blocksOf = (content: unknown): ContentBlock[] => {
  if (Array.isArray(content)) {
    const blocks: ContentBlock[] = []
    for (let i = 0; i < content.length; i++) {
      const entry: unknown = content[i]
      if (isRecord(entry)) blocks.push(entry as ContentBlock)
    }
    return blocks
  }
  if (isRecord(content)) return [content as ContentBlock]
  return []
}

/**
 * Whether a text block only serializes `structured` (the spec's backwards-compatible duplicate):
 *   (a) its text parses (plain JSON.parse: whitespace, scalars, duplicate keys all allowed) to a value
 *       deep-equal to `structured`; or
 *   (b) `structured` is an object with exactly one key (a wrap such as {"result": X} or {"content": "<text>"})
 *       and the text is that key's value as the same string, or parses to a value deep-equal to it.
 * Parsed values are compared, never strings, so indentation, spacing and key order do not matter.
 * A prose summary does not parse, so it stays in `content`.
 */
const isDuplicateText = (text: string, structured: unknown): boolean => {
  let parsed: { value: unknown } | undefined
  try {
    parsed = { value: JSON.parse(text) as unknown }
  } catch {
    parsed = undefined
  }
  if (parsed !== undefined && jsonEqual(parsed.value, structured)) return true
  // a string result (legal from 2026-07-28) whose text block is that same string, unquoted
  if (typeof structured === "string" && structured === text) return true
  if (isRecord(structured)) {
    const keys = Object.keys(structured)
    if (keys.length === 1) {
      // An own "__proto__" key reads back as its own value here, never the prototype.
      const inner = structured[keys[0]!]
      if (typeof inner === "string" && inner === text) return true
      if (parsed !== undefined && jsonEqual(parsed.value, inner)) return true
    }
  }
  return false
}

/**
 * Deep equality under JSON semantics: key order is irrelevant, arrays are ordered, 0 equals -0.
 * `parsed` must be fresh `JSON.parse` output (a finite tree): the walk is driven by it, iteratively, so deep
 * nesting cannot overflow the stack and a cyclic `other` cannot loop forever.
 */
const jsonEqual = (parsed: unknown, other: unknown): boolean => {
  const stack: unknown[] = [parsed, other]
  while (stack.length > 0) {
    const b = stack.pop()
    const a = stack.pop()
    if (a === b) continue
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
    const aArray = Array.isArray(a)
    if (aArray !== Array.isArray(b)) return false
    if (aArray) {
      const aa = a as unknown[]
      const bb = b as unknown[]
      if (aa.length !== bb.length) return false
      for (let i = 0; i < aa.length; i++) stack.push(aa[i], bb[i])
    } else {
      const ao = a as JsonObject
      const bo = b as JsonObject
      const aKeys = Object.keys(ao)
      if (aKeys.length !== Object.keys(bo).length) return false
      for (const key of aKeys) {
        if (!Object.hasOwn(bo, key)) return false
        stack.push(ao[key], bo[key])
      }
    }
  }
  return true
}
