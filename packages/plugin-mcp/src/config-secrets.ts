/**
 * An MCP source config's secrets, redacted here and nowhere else: where they are (for core to seal them at rest),
 * the config with them replaced (to show it), and text from a source scrubbed of them. No schema: a command that
 * only shows sources loads this without zod (./config-view.ts).
 */
import { isRecord } from "@switchboard/core"
import type { ConfigViewer } from "@switchboard/core"
import { secretArgIndexes, secretArgs } from "./arg-secrets.js"
import type { McpSourceConfig } from "./config.js"
import { encodedSpellings } from "./secret-spellings.js"
import { REDACTED, isPlainUrl, parseUrl, redactUrl, safeDecode, schemeUrl, urlSecrets } from "./url-secrets.js"

const redactValues = (map: Record<string, string>) => Object.fromEntries(Object.keys(map).map((k) => [k, REDACTED]))

const redactArgs = (args: readonly string[]): string[] => {
  const secret = secretArgs(args)
  return args.map((arg, index) => {
    const kind = secret.get(index)
    return kind === undefined ? arg : kind === "url" ? redactUrl(arg) : REDACTED
  })
}

/**
 * Header and env values are secrets, and so are the http URL's userinfo and query values, and the arguments that
 * look like credentials (./arg-secrets.ts): only names are ever shown. A `reader` (a key without admin) sees no
 * arguments of a stdio source at all, since which of them hold a credential can only be guessed.
 */
export const redactConfig = (config: unknown, viewer: ConfigViewer = "admin"): unknown => {
  const transport = (config as McpSourceConfig | null)?.transport
  if (!transport) return null
  if (transport.type === "http") {
    const auth = (config as McpSourceConfig).auth
    const shown = auth?.clientSecret === undefined ? auth : { ...auth, clientSecret: REDACTED }
    return {
      transport: { ...transport, url: redactUrl(transport.url), headers: redactValues(transport.headers) },
      ...(shown ? { auth: shown } : {}),
    }
  }
  const { args, ...rest } = transport
  return {
    transport: {
      ...rest,
      ...(viewer === "admin" ? { args: redactArgs(args ?? []) } : {}),
      env: redactValues(transport.env),
    },
  }
}

/** An http(s) URL with nothing in it that may be a credential (see urlSecrets). */
const isPlainHttpUrl = (url: unknown): boolean => {
  const parsed = typeof url === "string" ? parseUrl(url) : null
  return parsed !== null && /^https?:$/.test(parsed.protocol) && isPlainUrl(parsed)
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
  if (transport.type === "http" && !isPlainHttpUrl(transport.url)) paths.push(["transport", "url"])
  if (transport.type === "stdio" && Array.isArray(transport.args))
    for (const index of secretArgIndexes(transport.args)) paths.push(["transport", "args", String(index)])
  const auth = (config as { auth?: unknown }).auth
  if (isRecord(auth) && typeof auth.clientSecret === "string") paths.push(["auth", "clientSecret"])
  return paths
}

/** Shorter values are not scrubbed: replacing every "1" or "on" in a message would destroy it and hide nothing. */
const MIN_SECRET_LENGTH = 4
/** the shortest item of a header's list (`cookie: a=…; b=…`) scrubbed on its own */
const MIN_LIST_PART_LENGTH = 8

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

/**
 * A secret argument and the parts of it that travel alone: what follows its `=` (`--api-key=…`, `TOKEN=…`) or its
 * header name (`X-Api-Key: …`, and a scheme's credentials after it), and a URL's credentials (a connection
 * string's password, a webhook's token).
 */
const argSecrets = (arg: string): string[] => {
  // a URL's credentials, not its user name: a connection string's `postgres` is no secret, and is a common word
  const ofUrl = (url: URL | null) => (url ? urlSecrets(url).filter((part) => part !== url.username) : [])
  const url = schemeUrl(arg)
  if (url) return [arg, ...ofUrl(url)]
  const assigned = /^(?:--?)?[A-Za-z_][\w.-]*=(.+)$/s.exec(arg)?.[1]
  if (assigned !== undefined) return [arg, ...headerSecrets(assigned), ...ofUrl(schemeUrl(assigned))]
  const header = /^[A-Za-z][\w-]*\s*:\s*(\S.*)$/s.exec(arg)?.[1]
  return header !== undefined ? [arg, ...headerSecrets(header)] : headerSecrets(arg)
}

/** Every configured secret value, in each spelling a server or an error is likely to print it in. */
export const secretsOf = (config: McpSourceConfig | null | undefined): string[] => {
  const transport = config?.transport
  if (!transport) return []
  const raw: string[] = []
  if (transport.type === "stdio") {
    raw.push(...Object.values(transport.env ?? {}))
    const args = transport.args ?? []
    for (const index of secretArgIndexes(args)) raw.push(...argSecrets(args[index]!))
  }
  if (transport.type === "http") {
    for (const value of Object.values(transport.headers ?? {})) raw.push(...headerSecrets(value))
    if (config?.auth?.clientSecret) raw.push(config.auth.clientSecret)
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
