/**
 * The parameters of a `Bearer` challenge in a `WWW-Authenticate` header (RFC 6750 §3, RFC 9110 §11.6.1): what a
 * protected resource's 401 says of where its metadata is (`resource_metadata`, RFC 9728 §5.1), which scope it wants
 * and what was wrong. Other schemes' challenges in the same header are skipped. Bounded: a header past 8 KiB is
 * read no further.
 */

export interface BearerChallenge {
  resourceMetadata?: string
  scope?: string
  error?: string
}

const MAX_HEADER_CHARS = 8192
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/

/** Reads `name=value` pairs (token or quoted string) from `text` at `at`; stops at the next scheme. */
const readParams = (text: string, start: number): { params: Map<string, string>; end: number } => {
  const params = new Map<string, string>()
  let at = start
  for (;;) {
    while (at < text.length && (text[at] === " " || text[at] === "\t" || text[at] === ",")) at++
    const name = TOKEN.exec(text.slice(at))?.[0]
    if (!name) return { params, end: at }
    let after = at + name.length
    while (text[after] === " " || text[after] === "\t") after++
    // a name followed by no "=" is the next challenge's scheme
    if (text[after] !== "=" || text[after + 1] === "=") return { params, end: at }
    after++
    while (text[after] === " " || text[after] === "\t") after++
    let value = ""
    if (text[after] === '"') {
      after++
      while (after < text.length && text[after] !== '"') {
        if (text[after] === "\\" && after + 1 < text.length) after++
        value += text[after]
        after++
      }
      after++
    } else {
      value = TOKEN.exec(text.slice(after))?.[0] ?? ""
      after += value.length
    }
    params.set(name.toLowerCase(), value)
    at = after
  }
}

/** The first `Bearer` challenge's parameters; null when the header has none. */
export const parseBearerChallenge = (header: string | null | undefined): BearerChallenge | null => {
  if (!header) return null
  const text = header.slice(0, MAX_HEADER_CHARS)
  let at = 0
  while (at < text.length) {
    while (at < text.length && (text[at] === " " || text[at] === "," || text[at] === "\t")) at++
    const scheme = TOKEN.exec(text.slice(at))?.[0]
    if (!scheme) return null
    const { params, end } = readParams(text, at + scheme.length)
    if (scheme.toLowerCase() === "bearer") {
      const challenge: BearerChallenge = {}
      const metadata = params.get("resource_metadata")
      if (metadata) challenge.resourceMetadata = metadata
      const scope = params.get("scope")
      if (scope) challenge.scope = scope
      const error = params.get("error")
      if (error) challenge.error = error
      return challenge
    }
    if (end === at + scheme.length) {
      // a token68 (`Basic abc==`) or nothing: skip to the next comma
      const comma = text.indexOf(",", end)
      if (comma < 0) return null
      at = comma + 1
    } else at = end
  }
  return null
}
