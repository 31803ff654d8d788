/**
 * A successful `tools/call` result with the source's configured secrets replaced, before core sees it. A tool
 * that echoes its environment or the request's headers would otherwise hand a secret to the script, and from
 * there to the execution record, the API response and the model (ARCHITECTURE.md: safety: secrets never reach a script).
 * Every string is scrubbed, object keys included, except binary payloads: the base64 `data` of image and
 * audio blocks and a resource's `blob`, where a short secret can occur by chance and replacing it would
 * corrupt the bytes. Secrets under 4 characters are left, as in every message (see scrubSecrets).
 */
import { scrubWith, secretPattern, secretsOf } from "./config-secrets.js"
import type { McpSourceConfig } from "./config.js"

const BINARY_KEY_OF: Record<string, string> = { image: "data", audio: "data" }

interface Spellings {
  /** as scrubWith replaces them in a string */
  plain: string[]
  /** every one of them as it reads inside JSON text, in one pattern */
  escaped: RegExp | null
}

/** spellings per config object: computed once per source config, not once per call */
const spellingsCache = new WeakMap<object, Spellings>()
/**
 * and per config content: core reads a source's row anew for each execution, so each execution's config is a new
 * object with the same content, and working the spellings out (every encoding of every secret) costs more than the
 * call. Keyed by what secretsOf reads, so a changed secret is a new key.
 */
const spellingsByContent = new Map<string, Spellings>()
const CONTENT_CACHE_LIMIT = 64

const spellingsOf = (config: McpSourceConfig): Spellings => {
  let spellings = spellingsCache.get(config)
  if (spellings) return spellings
  const content = JSON.stringify([config.transport, config.auth?.clientSecret ?? null])
  spellings = spellingsByContent.get(content)
  if (!spellings) {
    const plain = secretsOf(config)
    const escaped = secretPattern(plain.map((secret) => JSON.stringify(secret).slice(1, -1)))
    spellings = { plain, escaped }
    if (spellingsByContent.size >= CONTENT_CACHE_LIMIT) spellingsByContent.clear()
    spellingsByContent.set(content, spellings)
  }
  spellingsCache.set(config, spellings)
  return spellings
}

const scrubValue = (secrets: readonly string[], value: unknown): unknown => {
  if (typeof value === "string") return scrubWith(secrets, value)
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.map((item) => scrubValue(secrets, item))
  const record = value as Record<string, unknown>
  const binaryKey = typeof record.type === "string" ? BINARY_KEY_OF[record.type] : undefined
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) {
    const keep = (key === binaryKey || key === "blob") && typeof item === "string"
    out[scrubWith(secrets, key)] = keep ? item : scrubValue(secrets, item)
  }
  return out
}

/**
 * One JSON.stringify decides whether to walk, one pass of one pattern over it: it holds every string and key,
 * escaped character by character, so a string holding a spelling holds its escaped form there, and no escaped
 * spelling in it means no spelling anywhere. A result that echoes no secret (nearly all) is handed on as it is, without being rebuilt.
 */
export const scrubResult = (config: McpSourceConfig, raw: unknown): unknown => {
  const { plain, escaped } = spellingsOf(config)
  if (plain.length === 0) return raw
  const json = JSON.stringify(raw)
  if (json === undefined || !escaped) return raw
  escaped.lastIndex = 0
  if (!escaped.test(json)) return raw
  return scrubValue(plain, raw)
}
