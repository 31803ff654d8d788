/** Reading stored output by line range and by pattern, with the text's own (0-based) line numbers. */
import { RE2JS } from "re2js"
import { splitLines } from "./render-for-model.js"
import { endAt, startAt } from "./surrogates.js"

/** A stored text read a page at a time (catalog/result-pages.ts makes one from the store, or from a text). */
export interface OutputPages {
  /** the whole text's length in UTF-8 bytes */
  bytes: number
  /** how many pages, read in order from 0 */
  pages: number
  /** one page; rejects with NotFound when the execution was deleted, or its record rewritten, since it was found */
  read(page: number): Promise<string>
}

export interface OutputPage {
  offset: number
  /** where in the first line the page starts (0 but when a long line is being read in pieces) */
  charOffset: number
  lines: string[]
  totalLines: number
  /** where the next page starts, or null at the end */
  nextOffset: number | null
  /** where in line `nextOffset` the next page starts: set when this page ends inside a long line */
  nextCharOffset?: number
}

export const MAX_PAGE_LINES = 2_000
/** a page's lines when the caller names no limit (the HTTP API, MCP `read_output`, the CLI) */
export const DEFAULT_PAGE_LINES = 200
/**
 * A line longer than this is read in pieces: a page ends inside it with a marker, and `nextCharOffset` says
 * where the next piece starts, so every character of a stored result can be read.
 */
export const MAX_LINE_CHARS = 4_000
export const MAX_GREP_MATCHES = 500
/** characters of a long line shown around a match, on each side */
export const GREP_CONTEXT_CHARS = 200

export const readOutputLines = (text: string, offset: number, limit: number, charOffset = 0): OutputPage => {
  const all = splitLines(text)
  const start = Math.max(0, Math.min(offset, all.length))
  const from = start < all.length ? Math.max(0, Math.min(charOffset, all[start]!.length)) : 0
  const lines: string[] = []
  const count = Math.min(limit, MAX_PAGE_LINES)
  for (let i = start; i < all.length && lines.length < count; i++) {
    const line = all[i]!
    const begin = i === start ? from : 0
    if (line.length - begin <= MAX_LINE_CHARS) {
      lines.push(begin === 0 ? line : line.slice(begin))
      continue
    }
    const end = endAt(line, begin + MAX_LINE_CHARS)
    lines.push(
      `${line.slice(begin, end)}…[line ${i} continues: ${line.length - end} more characters from charOffset ${end}]`,
    )
    return { offset: start, charOffset: from, lines, totalLines: all.length, nextOffset: i, nextCharOffset: end }
  }
  const next = start + lines.length
  return { offset: start, charOffset: from, lines, totalLines: all.length, nextOffset: next < all.length ? next : null }
}

/** A long line's first match with its context, saying where it is and how much is left out on each side. */
const matchInContext = (line: string, regex: RE2JS): string => {
  if (line.length <= MAX_LINE_CHARS) return line
  const matcher = regex.matcher(line)
  const [matchStart, matchEnd] = matcher.find() ? [matcher.start(), matcher.end()] : [0, 0]
  const begin = startAt(line, Math.max(0, matchStart - GREP_CONTEXT_CHARS))
  const end = endAt(line, Math.min(line.length, matchEnd + GREP_CONTEXT_CHARS, begin + MAX_LINE_CHARS))
  const before = begin > 0 ? `[${begin} characters before; the match starts at charOffset ${matchStart}]…` : ""
  const after = end < line.length ? `…[${line.length - end} more characters]` : ""
  return `${before}${line.slice(begin, end)}${after}`
}

export type GrepOutcome =
  | { ok: true; matches: { line: number; text: string }[]; totalLines: number; truncated: boolean }
  | { ok: false; code: GrepFailureCode; message: string }

/**
 * `invalid_pattern`: the caller's pattern is not RE2 or too long (400). `pattern_too_costly`: it ran past the
 * host's time limit for a search (400). `overloaded`: too many searches are waiting (429).
 */
export type GrepFailureCode = "invalid_pattern" | "pattern_too_costly" | "overloaded"

/**
 * Where a host runs a search. RE2 is linear in the text, but its constant grows with the pattern:
 * `(?:a?){1000}a{1000}$` takes a second over a thousand characters, and no step budget can be set inside
 * re2js. The Node host therefore runs `grepOutput` in a worker thread it terminates past a time limit, and hands
 * it the text a page at a time once the search has its turn (apps/server/src/grep/); the default reads the text and
 * searches it in place, for hosts where one request's CPU is its own. A runner rejects only as `output.read` does
 * (NotFound: the execution was deleted meanwhile).
 */
export type GrepRunner = (output: OutputPages, pattern: string) => Promise<GrepOutcome>

/** Every page, joined: the whole text. */
export const readAllPages = async (output: OutputPages): Promise<string> => {
  const pages: string[] = []
  for (let page = 0; page < output.pages; page++) pages.push(await output.read(page))
  return pages.join("")
}

export const grepInPlace: GrepRunner = async (output, pattern) => grepOutput(await readAllPages(output), pattern)

/**
 * Patterns run on RE2 (re2js: no backtracking), never on the host's own regex engine, which has no time
 * limit at all: a pattern such as `(a|a)+$` cannot stall the server. RE2 syntax has no lookaround and no
 * backreferences.
 */
export const MAX_GREP_PATTERN_CHARS = 1_000

export const grepOutput = (text: string, pattern: string): GrepOutcome => {
  if (pattern.length > MAX_GREP_PATTERN_CHARS)
    return {
      ok: false,
      code: "invalid_pattern",
      message: `the pattern is longer than ${MAX_GREP_PATTERN_CHARS} characters`,
    }
  let regex: RE2JS
  try {
    regex = RE2JS.compile(pattern)
  } catch (cause) {
    return {
      ok: false,
      code: "invalid_pattern",
      message: `not a valid regular expression (RE2 syntax: no lookaround or backreferences): ${(cause as Error).message}`,
    }
  }
  const all = splitLines(text)
  const matches: { line: number; text: string }[] = []
  for (let i = 0; i < all.length && matches.length < MAX_GREP_MATCHES; i++) {
    if (regex.test(all[i]!)) matches.push({ line: i, text: matchInContext(all[i]!, regex) })
  }
  return { ok: true, matches, totalLines: all.length, truncated: matches.length === MAX_GREP_MATCHES }
}
