/** The MCP source config as the API receives it, checked and redacted here and nowhere else. */

export type McpTransportConfig =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: "http"; url: string; headers: Record<string, string> }

export interface McpSourceConfig {
  transport: McpTransportConfig
}

export type ConfigCheck = { ok: true; config: McpSourceConfig } | { ok: false; reason: "invalid" | "forbidden"; message: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const isStringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((x) => typeof x === "string")

const invalid = (message: string): ConfigCheck => ({ ok: false, reason: "invalid", message })

/** The shape of a config only: whether this server may start or reach the source is decided at connect (connection.ts). */
export const checkConfig = (config: unknown): ConfigCheck => {
  const transport = isRecord(config) ? config.transport : undefined
  if (!isRecord(transport)) return invalid('an mcp source needs "transport": {"type":"stdio",...} or {"type":"http",...}')
  if (transport.type === "stdio") {
    const { command, args = [], env = {}, cwd } = transport
    if (typeof command !== "string" || command.length === 0) return invalid('transport.command must be a non-empty string')
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return invalid("transport.args must be an array of strings")
    if (!isStringMap(env)) return invalid("transport.env must be an object of string values")
    if (cwd !== undefined && typeof cwd !== "string") return invalid("transport.cwd must be a string")
    return { ok: true, config: { transport: { type: "stdio", command, args: args as string[], env, ...(cwd === undefined ? {} : { cwd: cwd as string }) } } }
  }
  if (transport.type === "http") {
    const { url, headers = {} } = transport
    let parsed: URL
    try {
      parsed = new URL(String(url))
    } catch {
      return invalid(`transport.url is not a URL: ${JSON.stringify(url)}`)
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return invalid("transport.url must be http or https")
    // fetch refuses a URL with credentials in it, so such a source could never connect; the message never echoes them
    if (parsed.username || parsed.password) {
      return invalid('transport.url must not carry a user or password (user:password@host): send credentials as a header instead, e.g. transport.headers: { "authorization": "Basic <base64 of user:password>" }')
    }
    if (!isStringMap(headers)) return invalid("transport.headers must be an object of string values")
    return { ok: true, config: { transport: { type: "http", url: parsed.toString(), headers } } }
  }
  return invalid(`transport.type must be "stdio" or "http" (got ${JSON.stringify(transport.type)})`)
}

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
      return eq < 0 ? { raw: pair, key: pair, value: "" } : { raw: pair, key: pair.slice(0, eq), value: pair.slice(eq + 1) }
    })

/** The URL with its userinfo and every query value replaced; built by hand, because URL's setters would percent-encode `<redacted>`. */
const redactUrl = (url: string): string => {
  const parsed = parseUrl(url)
  if (!parsed) return REDACTED
  const userinfo = parsed.username || parsed.password ? `${REDACTED}${parsed.password ? `:${REDACTED}` : ""}@` : ""
  const pairs = queryPairs(parsed)
  const search = pairs.length > 0 ? `?${pairs.map(({ raw, key, value }) => (value ? `${key}=${REDACTED}` : raw)).join("&")}` : ""
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${search}${parsed.hash}`
}

/** Header and env values are secrets, and so are the http URL's userinfo and query values: only names are ever shown. */
export const redactConfig = (config: unknown): unknown => {
  const transport = (config as McpSourceConfig | null)?.transport
  if (!transport) return null
  return transport.type === "stdio"
    ? { transport: { ...transport, env: redactValues(transport.env) } }
    : { transport: { ...transport, url: redactUrl(transport.url), headers: redactValues(transport.headers) } }
}

/** An http(s) URL with no userinfo and no query value: nothing in it to keep secret. */
const isPlainUrl = (url: unknown): boolean => {
  const parsed = typeof url === "string" ? parseUrl(url) : null
  return parsed !== null && /^https?:$/.test(parsed.protocol) && !parsed.username && !parsed.password && queryPairs(parsed).every((pair) => pair.value === "")
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
  return paths
}

/** The transport fields a PATCH may replace, each whole: the ones that hold credentials. */
const PATCHABLE = { stdio: ["env"], http: ["headers", "url"] } as const

/** `PATCH /v1/sources/:namespace`: `{ "transport": { "env": {...} } }` and the like; checked by checkConfig afterwards. */
export const mergeConfig = (current: unknown, patch: unknown): { ok: true; config: McpSourceConfig } | { ok: false; message: string } => {
  const transport = (current as McpSourceConfig | null)?.transport
  if (!transport) return { ok: false, message: "the stored source has no transport" }
  const allowed: readonly string[] = PATCHABLE[transport.type] ?? []
  const list = allowed.map((f) => `"transport.${f}"`).join(" or ")
  const { transport: given, ...rest } = patch as Record<string, unknown>
  if (Object.keys(rest).length > 0 || !isRecord(given) || Object.keys(given).length === 0) {
    return { ok: false, message: `the body must be {"transport": {...}} with ${list} to replace (a ${transport.type} source)` }
  }
  const refused = Object.keys(given).filter((field) => !allowed.includes(field))
  if (refused.length > 0) {
    return { ok: false, message: `a PATCH of a ${transport.type} source replaces only ${list}, not ${refused.map((f) => `"transport.${f}"`).join(", ")}; delete and add the source to change the rest` }
  }
  return { ok: true, config: { ...(current as McpSourceConfig), transport: { ...transport, ...given } as McpTransportConfig } }
}

/** Shorter values are not scrubbed: replacing every "1" or "on" in a message would destroy it and hide nothing. */
const MIN_SECRET_LENGTH = 4

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Every configured secret value, in each spelling a server or an error is likely to print it in. */
export const secretsOf = (config: McpSourceConfig | null | undefined): string[] => {
  const transport = config?.transport
  if (!transport) return []
  const raw: string[] = []
  if (transport.type === "stdio") raw.push(...Object.values(transport.env ?? {}))
  if (transport.type === "http") {
    for (const value of Object.values(transport.headers ?? {})) {
      raw.push(value)
      // "Bearer <token>": the token also travels alone
      const credentials = /^\S+\s+(\S+)$/.exec(value.trim())?.[1]
      if (credentials) raw.push(credentials)
    }
    const url = parseUrl(transport.url)
    if (url) raw.push(url.username, url.password, ...queryPairs(url).map((pair) => pair.value))
  }
  const spellings = raw.flatMap((value) => [value, safeDecode(value), encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])
  // longest first, so a secret that contains another is replaced whole
  return [...new Set(spellings.filter((value) => value.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length)
}

/**
 * Text that came from a source (its stderr, its JSON-RPC error messages, a connect error) with every configured
 * secret replaced. A crashing server may print its environment; what it prints must not reach a script or a log.
 */
export const scrubSecrets = (config: McpSourceConfig | null | undefined, text: string): string => scrubWith(secretsOf(config), text)

/** `text` with each of `secrets` (longest first, as secretsOf orders them) replaced. */
export const scrubWith = (secrets: readonly string[], text: string): string => {
  let scrubbed = text
  for (const secret of secrets) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED)
  return scrubbed
}
