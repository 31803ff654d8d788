/**
 * An MCP source config's secrets, redacted here and nowhere else: where they are (for core to seal them at rest),
 * the config with them replaced (to show it), and text from a source scrubbed of them. No schema: a command that
 * only shows sources loads this without zod (./config-view.ts).
 */
import { isRecord } from "@switchboard/core"
import type { McpSourceConfig } from "./config.js"
import { encodedSpellings } from "./secret-spellings.js"

const REDACTED = "<redacted>"

const redactValues = (map: Record<string, string>) => Object.fromEntries(Object.keys(map).map((k) => [k, REDACTED]))

const parseUrl = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
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
const redactUrl = (url: string): string => {
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
      ? `?${pairs.map(({ key, value, raw }) => (raw.includes("=") ? `${key}=${REDACTED}` : REDACTED)).join("&")}`
      : ""
  const hash = parsed.hash ? `#${REDACTED}` : ""
  return `${parsed.protocol}//${userinfo}${parsed.host}${path}${search}${hash}`
}

/** The parts of a URL that may be credentials, as written: userinfo, query values and bare keys, token-like path segments, the fragment. */
const urlSecrets = (parsed: URL): string[] => [
  parsed.username,
  parsed.password,
  ...queryPairs(parsed).map((pair) => (pair.raw.includes("=") ? pair.value : pair.key)),
  ...parsed.pathname.split("/").filter(isTokenLikeSegment),
  parsed.hash.slice(1),
]

const redactArgs = (args: readonly string[] | undefined): string[] | undefined => {
  if (!args) return args
  const secret = new Set(secretArgIndexes(args))
  return args.map((arg, index) => (secret.has(index) ? REDACTED : arg))
}

/** Header and env values are secrets, and so are the http URL's userinfo and query values: only names are ever shown. */
export const redactConfig = (config: unknown): unknown => {
  const transport = (config as McpSourceConfig | null)?.transport
  if (!transport) return null
  return transport.type === "stdio"
    ? { transport: { ...transport, args: redactArgs(transport.args), env: redactValues(transport.env) } }
    : { transport: { ...transport, url: redactUrl(transport.url), headers: redactValues(transport.headers) } }
}

/** An http(s) URL with nothing in it that may be a credential (see urlSecrets). */
const isPlainUrl = (url: unknown): boolean => {
  const parsed = typeof url === "string" ? parseUrl(url) : null
  return parsed !== null && /^https?:$/.test(parsed.protocol) && urlSecrets(parsed).every((part) => part === "")
}

/**
 * The paths of a config's secret values, for core to encrypt at rest: every env and header value, and the URL
 * when it carries a query value (or is not a plain URL: then it is the sealed form of one that did).
 */
export const secretFields = (config: unknown): string[][] => {
  const transport = (config as McpSourceConfig | null)?.transport
  if (!isRecord(transport)) return []
  const map = transport.type === "stdio" ? "env" : transport.type === "http" ? "headers" : null
  const values = map ? (transport as Record<string, unknown>)[map] : undefined
  const paths = isRecord(values) ? Object.keys(values).map((name) => ["transport", map!, name]) : []
  if (transport.type === "http" && !isPlainUrl(transport.url)) paths.push(["transport", "url"])
  if (transport.type === "stdio" && Array.isArray(transport.args))
    for (const index of secretArgIndexes(transport.args)) paths.push(["transport", "args", String(index)])
  return paths
}

/** A flag whose next argument is a credential: `--api-key sk_…`, `--token …`, `--header "Authorization: …"`. */
const SECRET_FLAG = /^--?[\w-]*(?:key|token|secret|password|passwd|auth|credential|header)[\w-]*$/i
/** An argument that carries a credential itself: `--api-key=sk_…`, `Bearer …`, `Authorization: …`. */
const SECRET_ARG =
  /^--?[\w-]*(?:key|token|secret|password|passwd|auth|credential)[\w-]*=.|\bbearer\s+\S|^authorization\s*:/i

/**
 * Which of a stdio source's arguments may be credentials (tokens are often passed as arguments): those that
 * look like one, those after a flag that takes one, and those already sealed. They are sealed at rest,
 * redacted when shown and scrubbed from text like env values.
 */
const secretArgIndexes = (args: readonly unknown[]): number[] =>
  args.flatMap((arg, index) => {
    if (typeof arg !== "string") return []
    const after =
      index > 0 &&
      typeof args[index - 1] === "string" &&
      SECRET_FLAG.test(args[index - 1] as string) &&
      !(args[index - 1] as string).includes("=")
    return after || SECRET_ARG.test(arg) || arg.startsWith("enc:v1:") ? [index] : []
  })

/** Shorter values are not scrubbed: replacing every "1" or "on" in a message would destroy it and hide nothing. */
const MIN_SECRET_LENGTH = 4
/** the shortest item of a header's list (`cookie: a=…; b=…`) scrubbed on its own */
const MIN_LIST_PART_LENGTH = 8

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * A header value and the parts of it that travel alone: the credentials after a scheme (`Bearer <token>`),
 * Basic's decoded `user:password` and password, and each `name=value` of a list (`cookie: a=1; b=2`).
 */
const headerSecrets = (value: string): string[] => {
  const parts = [value]
  const scheme = /^(\S+)\s+(\S+)$/.exec(value.trim())
  if (scheme) {
    parts.push(scheme[2]!)
    if (scheme[1]!.toLowerCase() === "basic") {
      try {
        const decoded = atob(scheme[2]!)
        parts.push(decoded, decoded.slice(decoded.indexOf(":") + 1))
      } catch {
        // not base64: the whole value is already there
      }
    }
  }
  // a list's items only when long enough to be credentials: `theme=dark` must not redact every "dark"
  for (const item of value.split(/[;,]/)) {
    const trimmed = item.trim()
    for (const part of [trimmed, trimmed.slice(trimmed.indexOf("=") + 1)])
      if (part.length >= MIN_LIST_PART_LENGTH) parts.push(part)
  }
  return parts
}

/** Every configured secret value, in each spelling a server or an error is likely to print it in. */
export const secretsOf = (config: McpSourceConfig | null | undefined): string[] => {
  const transport = config?.transport
  if (!transport) return []
  const raw: string[] = []
  if (transport.type === "stdio") {
    raw.push(...Object.values(transport.env ?? {}))
    const args = transport.args ?? []
    for (const index of secretArgIndexes(args)) {
      const arg = args[index]!
      // the whole argument, and what follows its `=` or its scheme (`Bearer <token>`) alone
      raw.push(arg, arg.slice(arg.indexOf("=") + 1), ...headerSecrets(arg.replace(/^authorization\s*:\s*/i, "")))
    }
  }
  if (transport.type === "http") {
    for (const value of Object.values(transport.headers ?? {})) raw.push(...headerSecrets(value))
    const url = parseUrl(transport.url)
    if (url) raw.push(...urlSecrets(url))
  }
  const spellings = raw.flatMap((value) => [
    value,
    safeDecode(value),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
    ...(value.length >= MIN_SECRET_LENGTH ? encodedSpellings(value) : []),
  ])
  // longest first, so a secret that contains another is replaced whole
  return [...new Set(spellings.filter((value) => value.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  )
}

/**
 * Text that came from a source (its stderr, its JSON-RPC error messages, a connect error) with every configured
 * secret replaced. A crashing server may print its environment; what it prints must not reach a script or a log.
 */
export const scrubSecrets = (config: McpSourceConfig | null | undefined, text: string): string =>
  scrubWith(secretsOf(config), text)

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** patterns per list of spellings: a source's list is made once (scrub-result.ts) and matched at every call */
const patterns = new WeakMap<readonly string[], RegExp | null>()

/**
 * One pattern matching every spelling in `secrets`, whatever its case (a secret echoed upper-cased, or its hex
 * in capitals): one pass over a text finds them all. Longest first (secretsOf's order), so a secret that holds
 * another is replaced whole. Null when there are none.
 */
export const secretPattern = (secrets: readonly string[]): RegExp | null => {
  let pattern = patterns.get(secrets)
  if (pattern === undefined) {
    pattern = secrets.length === 0 ? null : new RegExp(secrets.map(escapeRegExp).join("|"), "gi")
    patterns.set(secrets, pattern)
  }
  return pattern
}

/** `text` with each of `secrets` (longest first, as secretsOf orders them) replaced, in any case. */
export const scrubWith = (secrets: readonly string[], text: string): string => {
  const pattern = secretPattern(secrets)
  return pattern ? text.replace(pattern, REDACTED) : text
}
