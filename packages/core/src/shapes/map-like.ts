/**
 * When an object is a map (keys that are data, such as ids or dates) rather than a struct, its shape is
 * `Record<string, T>`: listing thousands of optional keys would tell a model nothing it can write against.
 */
import { type FieldShape, ShapeBounds } from "./shape.js"

/** Keys that are data: integers and decimals, UUIDs, long hex ids, ISO dates and timestamps. */
const DYNAMIC_KEY =
  /^(?:-?\d+(?:\.\d+)?|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64}|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)$/i

const isDynamicKey = (key: string) => key.length <= 64 && DYNAMIC_KEY.test(key)

/** Below this many distinct keys an object stays a struct however sparse its keys are. */
const SPARSE_MIN_KEYS = 16

/**
 * The rule, applied the same way to one observed object (samples = 1) and to a merge of many:
 * - more than `maxKeys` distinct keys;
 * - or at least two keys, every one of them data-like (`"1042"`, a UUID, `"2026-11-02"`);
 * - or more than 16 distinct keys while an average sample holds at most a quarter of them: keys that differ
 *   per call, which a struct with some optional fields does not do.
 */
export const isMapLike = (entries: readonly [string, FieldShape][], samples: number): boolean => {
  const distinct = entries.length
  if (distinct > ShapeBounds.maxKeys) return true
  if (distinct >= 2 && entries.every(([key]) => isDynamicKey(key))) return true
  if (distinct > SPARSE_MIN_KEYS) {
    let seen = 0
    for (const [, field] of entries) seen += field.seen
    if (4 * seen <= distinct * samples) return true
  }
  return false
}
