/**
 * An OpenAPI source config's secrets, here and nowhere else: where they are (for core to seal them at rest), the
 * config with them replaced (to show it), and text from the service scrubbed of them. Secrets are every `auth`
 * value (a basic credential's password, not its user name; OAuth settings' `clientSecret`, not the rest) and every
 * `headers` value. No schema is loaded here.
 */
import { isRecord } from "@switchboard/core"
import type { ConfigViewer } from "@switchboard/core"
import { isOAuthEntry } from "./oauth-login.js"

export const REDACTED = "<redacted>"
/** shorter values are not scrubbed: replacing every "on" in a message would destroy it and hide nothing */
const MIN_SECRET_LENGTH = 4

const recordAt = (config: unknown, key: string) => {
  const value = isRecord(config) ? config[key] : undefined
  return isRecord(value) ? value : {}
}

export const secretFields = (config: unknown): string[][] => {
  const paths: string[][] = []
  for (const [name, value] of Object.entries(recordAt(config, "auth")))
    if (!isRecord(value)) paths.push(["auth", name])
    else if (!isOAuthEntry(value)) paths.push(["auth", name, "password"])
    else if (typeof value.clientSecret === "string") paths.push(["auth", name, "clientSecret"])
  for (const name of Object.keys(recordAt(config, "headers"))) paths.push(["headers", name])
  return paths
}

export const redactConfig = (config: unknown, _viewer: ConfigViewer = "admin"): unknown => {
  if (!isRecord(config)) return null
  const spec = isRecord(config.spec) ? config.spec : {}
  const shown = (value: unknown) => {
    if (!isRecord(value)) return REDACTED
    if (!isOAuthEntry(value)) return { username: value.username, password: REDACTED }
    return value.clientSecret === undefined ? value : { ...value, clientSecret: REDACTED }
  }
  const auth = Object.fromEntries(Object.entries(recordAt(config, "auth")).map(([name, value]) => [name, shown(value)]))
  const headers = Object.fromEntries(Object.keys(recordAt(config, "headers")).map((name) => [name, REDACTED]))
  return {
    ...config,
    spec: typeof spec.inline === "string" ? { inline: `(${spec.inline.length} characters)` } : spec,
    auth,
    headers,
  }
}

const base64 = (text: string) => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** every configured secret, in the spellings a service or an error is likely to echo it in, longest first */
export const secretsOf = (config: unknown): string[] => {
  const raw: string[] = []
  for (const value of Object.values(recordAt(config, "auth"))) {
    if (typeof value === "string") raw.push(value)
    else if (isRecord(value) && isOAuthEntry(value)) {
      if (typeof value.clientSecret === "string") raw.push(value.clientSecret)
    } else if (isRecord(value) && typeof value.password === "string") {
      raw.push(value.password, base64(`${value.username}:${value.password}`))
    }
  }
  for (const value of Object.values(recordAt(config, "headers"))) {
    if (typeof value !== "string") continue
    raw.push(value)
    const scheme = /^\S+\s+(\S+)$/.exec(value.trim())
    if (scheme) raw.push(scheme[1]!)
  }
  const spellings = raw.flatMap((value) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])
  return [...new Set(spellings.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length)
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** `config`'s scrubber, made once per config object: one pattern, matched in any case */
const scrubbers = new WeakMap<object, (text: string) => string>()

export const scrubberOf = (config: unknown): ((text: string) => string) => {
  const cached = isRecord(config) ? scrubbers.get(config) : undefined
  if (cached) return cached
  const secrets = secretsOf(config)
  const pattern = secrets.length === 0 ? null : new RegExp(secrets.map(escapeRegExp).join("|"), "gi")
  const scrub = (text: string) => (pattern ? text.replace(pattern, REDACTED) : text)
  if (isRecord(config)) scrubbers.set(config, scrub)
  return scrub
}
