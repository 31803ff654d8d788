import { columnBeforeInsertions } from "./completion-value.js"
import { scriptFilename, strippingSourceMap } from "./prepare-code.js"
import type { PreparedCode } from "./prepare-code.js"

export interface SourcePosition {
  line: number
  column: number
}

// QuickJS frames look like "    at f (script.ts:2:9)" or, for a syntax error, "    at script.ts:2:9".
const framePattern = new RegExp(`${scriptFilename.replace(".", "\\.")}:(\\d+):(\\d+)`)

/** The first frame of the user's script in a QuickJS stack, in the user's own lines and columns (1-based). */
export const positionInScript = (stack: string | undefined, code: PreparedCode): SourcePosition | undefined => {
  const match = stack ? framePattern.exec(stack) : null
  if (!match) return undefined
  let line = Number(match[1])
  let column = Number(match[2])
  if (line === 1) column = Math.max(1, column - code.prefixLength)
  column = columnBeforeInsertions(code.insertions, line, column)
  const strippedLines = code.stripped.split("\n")
  if (line > strippedLines.length) {
    // the wrapper's closing line: "unexpected end of input" and the like belong at the end of the script
    line = strippedLines.length
    column = (strippedLines[line - 1]?.length ?? 0) + 1
  }
  const originalLine = code.original.split("\n")[line - 1]
  if (originalLine !== strippedLines[line - 1]) column = originalColumn(code.original, line, column) ?? column
  return { line, column }
}

/** Maps a column on a line whose type syntax sucrase removed back to the column the user wrote. */
const originalColumn = (original: string, line: number, column: number): number | undefined => {
  const mappings = strippingSourceMap(original)
  if (mappings === undefined) return undefined
  const segments = decodeLine(mappings, line - 1)
  let best: { generated: number; original: number } | undefined
  for (const segment of segments) {
    if (segment.generated <= column - 1 && (!best || segment.generated >= best.generated)) best = segment
  }
  return best ? best.original + (column - 1 - best.generated) + 1 : undefined
}

const base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

/**
 * Decodes the segments of one generated line of a source map ("mappings", VLQ) into 0-based
 * generated and original columns. Sucrase maps line n to line n, so only the columns matter.
 */
const decodeLine = (mappings: string, lineIndex: number): { generated: number; original: number }[] => {
  const lines = mappings.split(";")
  let originalColumnState = 0
  let found: { generated: number; original: number }[] = []
  for (let index = 0; index <= lineIndex && index < lines.length; index++) {
    let generated = 0
    const segments: { generated: number; original: number }[] = []
    for (const segment of (lines[index] ?? "").split(",")) {
      if (!segment) continue
      const fields = decodeVlq(segment)
      generated += fields[0] ?? 0
      // fields: generated column, source index, original line, original column (all relative)
      if (fields.length >= 4) {
        originalColumnState += fields[3] ?? 0
        segments.push({ generated, original: originalColumnState })
      }
    }
    if (index === lineIndex) found = segments
  }
  return found
}

const decodeVlq = (segment: string): number[] => {
  const values: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = base64.indexOf(char)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return values
}
