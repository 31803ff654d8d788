/** Reading stored output by line range and by pattern, with the text's own (0-based) line numbers. */
import { RE2JS } from "re2js"
import { splitLines } from "./render-for-model.js"

export interface OutputPage {
  offset: number
  lines: string[]
  totalLines: number
  /** where the next page starts, or null at the end */
  nextOffset: number | null
}

export const MAX_PAGE_LINES = 2_000
/** A line longer than this is cut in a page or a match, with a marker; the whole text stays readable via the raw output. */
export const MAX_LINE_CHARS = 4_000

const clip = (line: string) =>
  line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}…[line continues: ${line.length - MAX_LINE_CHARS} more characters]`
export const MAX_GREP_MATCHES = 500

export const readOutputLines = (text: string, offset: number, limit: number): OutputPage => {
  const all = splitLines(text)
  const start = Math.max(0, Math.min(offset, all.length))
  const lines = all.slice(start, start + Math.min(limit, MAX_PAGE_LINES)).map(clip)
  const next = start + lines.length
  return { offset: start, lines, totalLines: all.length, nextOffset: next < all.length ? next : null }
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
 * re2js. The Node host therefore runs `grepOutput` in a worker thread it terminates past a time limit
 * (apps/server/src/grep/); the default runs it in place, for hosts where one request's CPU is its own.
 */
export type GrepRunner = (text: string, pattern: string) => Promise<GrepOutcome>

export const grepInPlace: GrepRunner = async (text, pattern) => grepOutput(text, pattern)

/**
 * Patterns run on RE2 (re2js: no backtracking), never on the host's own regex engine, which has no time
 * limit at all: a pattern such as `(a|a)+$` cannot stall the server. RE2 syntax has no lookaround and no
 * backreferences.
 */
export const MAX_GREP_PATTERN_CHARS = 1_000

export const grepOutput = (text: string, pattern: string): GrepOutcome => {
  if (pattern.length > MAX_GREP_PATTERN_CHARS) return { ok: false, code: "invalid_pattern", message: `the pattern is longer than ${MAX_GREP_PATTERN_CHARS} characters` }
  let regex: RE2JS
  try {
    regex = RE2JS.compile(pattern)
  } catch (cause) {
    return { ok: false, code: "invalid_pattern", message: `not a valid regular expression (RE2 syntax: no lookaround or backreferences): ${(cause as Error).message}` }
  }
  const all = splitLines(text)
  const matches: { line: number; text: string }[] = []
  for (let i = 0; i < all.length && matches.length < MAX_GREP_MATCHES; i++) {
    if (regex.test(all[i]!)) matches.push({ line: i, text: clip(all[i]!) })
  }
  return { ok: true, matches, totalLines: all.length, truncated: matches.length === MAX_GREP_MATCHES }
}
