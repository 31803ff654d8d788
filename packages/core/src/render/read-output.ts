/** Reading stored output by line range and by pattern, with the text's own (0-based) line numbers. */
import { splitLines } from "./render-for-model.js"

export interface OutputPage {
  offset: number
  lines: string[]
  totalLines: number
  /** where the next page starts, or null at the end */
  nextOffset: number | null
}

export const MAX_PAGE_LINES = 2_000
export const MAX_GREP_MATCHES = 500

export const readOutputLines = (text: string, offset: number, limit: number): OutputPage => {
  const all = splitLines(text)
  const start = Math.max(0, Math.min(offset, all.length))
  const lines = all.slice(start, start + Math.min(limit, MAX_PAGE_LINES))
  const next = start + lines.length
  return { offset: start, lines, totalLines: all.length, nextOffset: next < all.length ? next : null }
}

export type GrepOutcome =
  | { ok: true; matches: { line: number; text: string }[]; totalLines: number; truncated: boolean }
  | { ok: false; message: string }

/**
 * The host's regex engine has no time limit, so patterns that can backtrack catastrophically (a quantified
 * group that itself holds a quantifier, such as `(a+)+`) are refused, and each line is searched in its
 * first MAX_GREP_LINE_CHARS characters only.
 */
const NESTED_QUANTIFIER = /\([^)]*[+*}][^)]*\)\s*[+*{]/
export const MAX_GREP_PATTERN_CHARS = 500
export const MAX_GREP_LINE_CHARS = 10_000

export const grepOutput = (text: string, pattern: string): GrepOutcome => {
  if (pattern.length > MAX_GREP_PATTERN_CHARS) return { ok: false, message: `the pattern is longer than ${MAX_GREP_PATTERN_CHARS} characters` }
  if (NESTED_QUANTIFIER.test(pattern)) return { ok: false, message: "the pattern nests a quantifier inside a quantified group, which can take exponential time; simplify it" }
  let regex: RegExp
  try {
    regex = new RegExp(pattern)
  } catch (cause) {
    return { ok: false, message: `not a valid regular expression: ${(cause as Error).message}` }
  }
  const all = splitLines(text)
  const matches: { line: number; text: string }[] = []
  for (let i = 0; i < all.length && matches.length < MAX_GREP_MATCHES; i++) {
    if (regex.test(all[i]!.slice(0, MAX_GREP_LINE_CHARS))) matches.push({ line: i, text: all[i]! })
  }
  return { ok: true, matches, totalLines: all.length, truncated: matches.length === MAX_GREP_MATCHES }
}
