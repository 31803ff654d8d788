/**
 * Images and audio a script returns are media, not text: they go to MCP clients as native content blocks,
 * never as base64 inside the text. `splitMedia` takes them out of a result value and says what text remains.
 *
 * - a lone image/audio block -> that block, and nothing else to render;
 * - an array holding image/audio blocks (as an MCP tool's `data` often is) -> those blocks, and the rest of
 *   the array: its text blocks' texts joined by newlines when only text blocks remain, else the remaining
 *   array as it is;
 * - anything else -> no media, the value unchanged.
 */
import type { ContentBlock } from "../result.js"

const MEDIA_TYPES = new Set(["image", "audio"])

export const isMediaBlock = (value: unknown): value is ContentBlock & { data: string; mimeType: string } =>
  typeof value === "object" &&
  value !== null &&
  MEDIA_TYPES.has((value as { type?: unknown }).type as string) &&
  typeof (value as { data?: unknown }).data === "string" &&
  typeof (value as { mimeType?: unknown }).mimeType === "string"

const isTextBlock = (value: unknown): value is { type: "text"; text: string } =>
  typeof value === "object" &&
  value !== null &&
  (value as { type?: unknown }).type === "text" &&
  typeof (value as { text?: unknown }).text === "string"

export const splitMedia = (value: unknown): { value: unknown; media: ContentBlock[] } => {
  if (isMediaBlock(value)) return { value: undefined, media: [value] }
  if (!Array.isArray(value) || !value.some(isMediaBlock)) return { value, media: [] }
  const media = value.filter(isMediaBlock)
  const rest = value.filter((item) => !isMediaBlock(item))
  if (rest.length === 0) return { value: undefined, media }
  return { value: rest.every(isTextBlock) ? rest.map((block) => block.text).join("\n") : rest, media }
}
