/**
 * When an object is a map (keys that are data, such as ids, dates or emails) rather than a struct, its shape
 * is `Record<string, T>`. Shapes are served to every caller (describe), so a key that could be one caller's
 * data must never be stored: when in doubt, the object is a record (ARCHITECTURE.md: safety).
 */
import { type FieldShape, ShapeBounds } from "./shape.js"

/** A struct key reads like a field name: a letter, `_` or `$`, then letters, digits, `_`, `$` or `-`. */
const FIELD_NAME = /^[\p{L}_$][\p{L}\p{N}_$-]*$/u
const LONG_NUMBER = /\d{5}/
const HEX_ID = /^[0-9a-f]{16,}$/i
const MIXED_TOKEN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{16,}$/
const DIGITS = /\d/g

/**
 * Keys that could be data: anything that is not a field name (emails, URLs, paths, dates, numbers, keys with
 * spaces, `@`, `.`, `/` or `:`), long numbers, hex and base62 tokens, and ids that are a quarter digits
 * (`tok_8f9a7b6c5d4e`, `user1042`).
 */
export const isDataLikeKey = (key: string): boolean => {
  if (key.length === 0 || key.length > 48 || !FIELD_NAME.test(key)) return true
  if (LONG_NUMBER.test(key) || HEX_ID.test(key) || MIXED_TOKEN.test(key)) return true
  const digits = key.match(DIGITS)?.length ?? 0
  return digits >= 4 && 4 * digits >= key.length
}

/** Below this many distinct keys an object stays a struct however sparse its keys are. */
const SPARSE_MIN_KEYS = 16

/** Once an object shape has merged this many samples, a key seen in only one of them is not kept. */
export const RARE_KEY_MIN_SAMPLES = 3

/** A key seen in one sample of many is more likely one caller's data than a field: it is not stored. */
export const isRareKey = (field: FieldShape, samples: number): boolean =>
  samples >= RARE_KEY_MIN_SAMPLES && field.seen <= 1

/** The caller a result is observed for: an API key's id, hashed like a rare key; keys off is no tag at all. */
export const callerTag = (keyId: string | null): string | undefined =>
  keyId === null ? undefined : rareKeyHash(`caller:${keyId}`)

/**
 * What a rare key leaves behind: 32 bits of FNV-1a, enough to know the key when it comes back, too few to
 * recover it (and never rendered: describe shows fields only).
 */
export const rareKeyHash = (key: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, "0")
}

/**
 * The rule, applied the same way to one observed object (samples = 1), to a merge of many and to a stored
 * shape read back (`rareKeys` counts the keys kept only as a hash, each seen once):
 * - more than `maxKeys` distinct keys;
 * - or any key that could be data (`isDataLikeKey`);
 * - or more than 16 distinct keys while an average sample holds at most a quarter of them: keys that differ
 *   per call, which a struct with some optional fields does not do.
 */
export const isMapLike = (entries: readonly [string, FieldShape][], samples: number, rareKeys = 0): boolean => {
  const distinct = entries.length + rareKeys
  if (distinct > ShapeBounds.maxKeys) return true
  if (entries.some(([key]) => isDataLikeKey(key))) return true
  if (distinct > SPARSE_MIN_KEYS) {
    let seen = rareKeys // each was seen once
    for (const [, field] of entries) seen += field.seen
    if (4 * seen <= distinct * samples) return true
  }
  return false
}
