/**
 * The parts of a URL that may be credentials (an http source's URL, or a URL among a stdio source's arguments: a
 * Postgres connection string, a webhook): its userinfo, query values and bare keys, token-like path segments and
 * fragment. Used by ./config-secrets.ts and ./arg-secrets.ts to seal, redact and scrub them.
 */

export const REDACTED = "<redacted>"

export const parseUrl = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** `text` as a URL when it is one written with `scheme://` (an argument such as `postgresql://…`), else null. */
export const schemeUrl = (text: string): URL | null => (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? parseUrl(text) : null)

export const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Query-string pairs as written (still percent-encoded), so a redacted URL keeps its keys byte for byte. */
const queryPairs = (url: URL) =>
  url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const eq = pair.indexOf("=")
      return eq < 0
        ? { raw: pair, key: pair, value: "" }
        : { raw: pair, key: pair.slice(0, eq), value: pair.slice(eq + 1) }
    })

/**
 * A path segment that may be a credential: hosted MCP servers put keys in the path (`/s/<key>/mcp`). Long, or
 * letters and digits mixed: a word such as `mcp` or `v1` is not one.
 */
const isTokenLikeSegment = (segment: string): boolean => {
  const text = safeDecode(segment)
  return text.length >= 16 || (text.length >= 8 && /\d/.test(text) && /[A-Za-z]/.test(text))
}

/**
 * The URL with its userinfo, every query value, every bare query key (`?<key>`), every token-like path segment
 * and its fragment replaced; built by hand, because URL's setters would percent-encode `<redacted>`.
 */
export const redactUrl = (url: string): string => {
  const parsed = parseUrl(url)
  if (!parsed) return REDACTED
  const userinfo = parsed.username || parsed.password ? `${REDACTED}${parsed.password ? `:${REDACTED}` : ""}@` : ""
  const path = parsed.pathname
    .split("/")
    .map((segment) => (isTokenLikeSegment(segment) ? REDACTED : segment))
    .join("/")
  const pairs = queryPairs(parsed)
  const search =
    pairs.length > 0
      ? `?${pairs.map(({ key, raw }) => (raw.includes("=") ? `${key}=${REDACTED}` : REDACTED)).join("&")}`
      : ""
  const hash = parsed.hash ? `#${REDACTED}` : ""
  return `${parsed.protocol}//${userinfo}${parsed.host}${path}${search}${hash}`
}

/** The parts of a URL that may be credentials, as written: userinfo, query values and bare keys, token-like path segments, the fragment. */
export const urlSecrets = (parsed: URL): string[] => [
  parsed.username,
  parsed.password,
  ...queryPairs(parsed).map((pair) => (pair.raw.includes("=") ? pair.value : pair.key)),
  ...parsed.pathname.split("/").filter(isTokenLikeSegment),
  parsed.hash.slice(1),
]

/** A URL with nothing in it that may be a credential (see urlSecrets). */
export const isPlainUrl = (parsed: URL): boolean => urlSecrets(parsed).every((part) => part === "")
