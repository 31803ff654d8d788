import { prettyJson } from "./pretty-json.js"
import { endAt } from "./surrogates.js"

/**
 * The one function that turns a script's result into text for a model (ARCHITECTURE.md: model-facing text). Every surface — the
 * execute response, the MCP `execute` tool, the stored execution record, the CLI — gets its text here.
 *
 * - A string is its own text, never JSON-quoted; lone UTF-16 surrogates become U+FFFD (a provider refuses
 *   them and UTF-8 cannot store them); a surrogate pair is kept.
 * - "", undefined and null are all the empty result.
 * - Anything else is JSON, encoded once: compact when it fits the inline cap, else laid out with lines to
 *   page and grep by (./pretty-json.ts), at most 3x the compact size and at most `maxChars` characters;
 *   past either bound the compact JSON is the text.
 */
export const renderForModel = (value: unknown, inlineCap = DEFAULT_INLINE_CAP, maxChars?: number): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return toWellFormed(value)
  return renderJson(value, JSON.stringify(value) ?? "", inlineCap, maxChars)
}

/** renderForModel's text of a value that is not a string, given its compact JSON (`JSON.stringify(value)`) */
export const renderJson = (value: unknown, compact: string, inlineCap = DEFAULT_INLINE_CAP, maxChars?: number) =>
  toWellFormed(compact.length <= inlineCap ? compact : (prettyJson(value, { compact, maxChars }) ?? compact))

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

export const toWellFormed = (text: string): string => text.replace(LONE_SURROGATE, "\uFFFD")

export const DEFAULT_INLINE_CAP = 30_000

export interface InlineText {
  /** what the model sees now: the whole text, or its first lines and a line saying how to read the rest */
  text: string
  truncated: boolean
  totalLines: number
  totalChars: number
}

/** Splits on \n only, so line numbers match the text's own lines (a \r stays part of its line). */
export const splitLines = (text: string): string[] => (text === "" ? [] : text.split("\n"))

/**
 * Fits rendered text under the inline cap, measured on the text itself. Past the cap the whole text is kept
 * by the caller (stored with the execution) and this returns its first whole lines plus a pointer.
 */
const countLines = (text: string) => {
  if (text === "") return 0
  let lines = 1
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++
  return lines
}

/** Whether `inlineText` answers the whole text; past the cap it cuts it and points at read_output. */
export const fitsInline = (full: string, cap = DEFAULT_INLINE_CAP) => full.length <= cap

/** Where the rest of a cut text starts: the line, and within a first line longer than the cap, the character. */
export interface ReadOn {
  executionId: string
  offset: number
  charOffset?: number
}

/** How a model reads on, through MCP or HTTP: each surface that shows a cut text may say it in its own terms. */
export const readOnThroughApi = ({ executionId, offset, charOffset }: ReadOn) =>
  `Read the rest with read_output {"executionId":"${executionId}","offset":${offset}` +
  `${charOffset === undefined ? "" : `,"charOffset":${charOffset}`},"limit":200} or ` +
  `GET /v1/executions/${executionId}/output?offset=${offset}${charOffset === undefined ? "" : `&charOffset=${charOffset}`}&limit=200; ` +
  "search it with grep_output or ?grep=<regex>"

/** Where a text cut for a model can be read whole, and where it is cut. */
export interface InlineOptions {
  /** the execution whose record holds the whole text; null: the record was not stored, so the note says the rest is gone */
  executionId: string | null
  cap?: number
  /** how the note says to read on (by default through MCP's read_output or the HTTP API) */
  readOn?: (at: ReadOn) => string
}

export const inlineText = (
  full: string,
  { executionId, cap = DEFAULT_INLINE_CAP, readOn = readOnThroughApi }: InlineOptions,
): InlineText => {
  if (fitsInline(full, cap))
    return { text: full, truncated: false, totalLines: countLines(full), totalChars: full.length }
  // the whole lines that fit, with their newlines, within the cap; the text is not split (it may be megabytes)
  let shownLines = 0
  let headEnd = 0
  for (let i = full.indexOf("\n"); i !== -1 && i + 1 <= cap; i = full.indexOf("\n", i + 1)) {
    shownLines++
    headEnd = i
  }
  const totalLines = countLines(full)
  // a single line longer than the cap: show its beginning rather than nothing
  const cut = endAt(full, cap)
  const shown = shownLines > 0 ? full.slice(0, headEnd) : full.slice(0, cut)
  const shownCount = shownLines > 0 ? shownLines : `${cut} characters of line 0`
  const shownPart = `[output truncated: showing ${shownCount} of ${totalLines} lines (${full.length} characters in all). `
  if (executionId === null) {
    const gone = `${shownPart}The rest could not be stored, so it cannot be read later: return less, or run the script again]`
    return { text: `${shown}\n${gone}`, truncated: true, totalLines, totalChars: full.length }
  }
  // a first line longer than the cap was cut: the rest of it is read from where the cut fell
  const note = `${shownPart}${readOn({ executionId, offset: shownLines, ...(shownLines > 0 ? {} : { charOffset: cut }) })}]`
  return { text: `${shown}\n${note}`, truncated: true, totalLines, totalChars: full.length }
}
