/**
 * What a listing of executions shows of each script: one line of it. The store reads only the code's head
 * (`PREVIEW_SCAN` characters, in SQL), never a whole script, which may be as large as a request body.
 */

/** the characters of code a listing reads, from its start: room for some blank lines before the first one that says something */
export const PREVIEW_SCAN = 1000

export const PREVIEW_CHARS = 120

const HIGH_SURROGATE = /[\uD800-\uDBFF]$/

/**
 * The first line of `head` that is not blank, without the whitespace around it, cut to at most PREVIEW_CHARS UTF-16
 * units; a cut never leaves half of a surrogate pair (the preview is then one unit shorter). "" when every line is
 * blank.
 */
export const codePreview = (head: string): string => {
  const line = head
    .split(/\r\n|\r|\n/)
    .find((text) => text.trim() !== "")
    ?.trim()
  if (line === undefined) return ""
  if (line.length <= PREVIEW_CHARS) return line
  const cut = line.slice(0, PREVIEW_CHARS)
  return HIGH_SURROGATE.test(cut) ? cut.slice(0, -1) : cut
}
