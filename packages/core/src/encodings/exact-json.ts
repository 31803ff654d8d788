/**
 * Lossless JSON parse for the `mcp-call-tool-result-v2` exact-JSON rule (ARCHITECTURE.md: result contract).
 *
 * A text is "exact JSON" when, after JSON whitespace (space, tab, LF, CR; not a BOM), it is one JSON object or
 * array that `JSON.parse` accepts and that parse loses nothing:
 *   - no integer token (no `.`, no exponent) outside ±(2^53−1): `9007199254740993` would round silently;
 *   - no number token that overflows to ±Infinity (`1e400`, a 309-digit literal);
 *   - no object with the same key twice (compared by decoded value, so `{"a":1,"\u0061":2}` is a duplicate).
 * Non-integer tokens (`1.5`, `6.02e23`, `1e-400`) are accepted: they denote binary floating point already.
 *
 * Cost: `JSON.parse` (native; rejects invalid text fast), then one linear scan of the text that assumes it is
 * valid JSON. String bodies are skipped with native `indexOf`; the only allocations are the object keys (one
 * flat array reused by every open object, upgraded to a `Set` for an object with many keys), so it stays O(n)
 * on multi-megabyte results. The returned value is `JSON.parse`'s own output, so a `"__proto__"` key is an own
 * data property and never a prototype.
 */

export type ExactJsonResult = { ok: true; value: unknown } | { ok: false }

const NOT_EXACT: { ok: false } = Object.freeze({ ok: false as const })

/** Largest safe integer's digits; a 16-digit integer token above this (or any longer one) is lossy. */
const MAX_SAFE_DIGITS = "9007199254740991"
/** Beyond this many keys an object's duplicate check moves from a linear search to a Set. */
const LINEAR_KEY_LIMIT = 16

const isJsonWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** Parses `text` as one JSON object or array, or reports that it is not exact JSON. Never throws. */
export const parseExactJson = (text: string): ExactJsonResult => {
  let start = 0
  while (start < text.length && isJsonWs(text.charCodeAt(start))) start++
  const first = text.charCodeAt(start) // NaN when the text is all whitespace
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return NOT_EXACT
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return NOT_EXACT
  }
  return isLossless(text, start) ? { ok: true, value } : NOT_EXACT
}

/**
 * One pass over a text that `JSON.parse` accepted: false on an unsafe integer, an overflowing number or a
 * duplicate key. Only valid JSON reaches here, so the scanner does not check the grammar.
 */
const isLossless = (text: string, start: number): boolean => {
  const n = text.length
  /** keys of every open object, innermost object's keys last (a closed object truncates back to its base) */
  const keys: string[] = []
  /** per open container: -1 for an array, else the index in `keys` where that object's keys begin */
  const frames: number[] = []
  /** per open container: the object's key set once it outgrew LINEAR_KEY_LIMIT */
  const sets: (Set<string> | undefined)[] = []
  let expectKey = false
  /** index of the next backslash at or after the scan position (-1: none left); recomputed only when passed */
  let nextBackslash = text.indexOf("\\", start)

  let i = start
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      // Find the closing quote: a quote preceded by an even number of backslashes.
      let end = text.indexOf('"', i + 1)
      for (;;) {
        let b = end - 1
        while (text.charCodeAt(b) === 0x5c) b--
        if ((end - 1 - b) % 2 === 0) break
        end = text.indexOf('"', end + 1)
      }
      if (expectKey) {
        if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf("\\", i)
        const escaped = nextBackslash !== -1 && nextBackslash < end
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end)
        if (!addKey(keys, frames, sets, key)) return false
        expectKey = false
      }
      i = end + 1
    } else if (c === 0x2d /* - */ || isDigit(c)) {
      const tokenStart = i
      if (c === 0x2d) i++
      const intStart = i
      while (i < n && isDigit(text.charCodeAt(i))) i++
      const intDigits = i - intStart
      let integer = true
      let exponent = false
      if (text.charCodeAt(i) === 0x2e /* . */) {
        integer = false
        i++
        while (i < n && isDigit(text.charCodeAt(i))) i++
      }
      const e = text.charCodeAt(i)
      if (e === 0x65 || e === 0x45 /* e E */) {
        integer = false
        exponent = true
        i++
        const sign = text.charCodeAt(i)
        if (sign === 0x2b || sign === 0x2d) i++
        while (i < n && isDigit(text.charCodeAt(i))) i++
      }
      if (integer) {
        // JSON forbids leading zeros, so the digit count orders magnitudes.
        if (intDigits > MAX_SAFE_DIGITS.length) return false
        if (intDigits === MAX_SAFE_DIGITS.length && digitsExceed(text, intStart, MAX_SAFE_DIGITS)) return false
      } else if (exponent || intDigits > 308) {
        // Without an exponent, a number below 10^308 cannot overflow; otherwise ask the engine.
        if (!Number.isFinite(Number(text.slice(tokenStart, i)))) return false
      }
    } else {
      if (c === 0x7b /* { */) {
        frames.push(keys.length)
        sets.push(undefined)
        expectKey = true
      } else if (c === 0x5b /* [ */) {
        frames.push(-1)
        sets.push(undefined)
      } else if (c === 0x7d /* } */) {
        keys.length = frames.pop()!
        sets.pop()
        expectKey = false
      } else if (c === 0x5d /* ] */) {
        frames.pop()
        sets.pop()
      } else if (c === 0x2c /* , */) {
        expectKey = frames[frames.length - 1]! >= 0
      }
      // whitespace, `:` and the letters of true/false/null need nothing
      i++
    }
  }
  return true
}

/** Adds a key to the innermost open object; false when that object already has it. */
const addKey = (keys: string[], frames: number[], sets: (Set<string> | undefined)[], key: string): boolean => {
  const top = frames.length - 1
  const set = sets[top]
  if (set !== undefined) {
    if (set.has(key)) return false
    set.add(key)
    return true
  }
  const base = frames[top]!
  for (let k = base; k < keys.length; k++) if (keys[k] === key) return false
  if (keys.length - base < LINEAR_KEY_LIMIT) {
    keys.push(key)
    return true
  }
  const grown = new Set<string>()
  for (let k = base; k < keys.length; k++) grown.add(keys[k]!)
  grown.add(key)
  keys.length = base
  sets[top] = grown
  return true
}

/** Whether the `digits.length` digits of `text` at `from` are numerically greater than `digits` (same length). */
const digitsExceed = (text: string, from: number, digits: string): boolean => {
  for (let k = 0; k < digits.length; k++) {
    const a = text.charCodeAt(from + k)
    const b = digits.charCodeAt(k)
    if (a !== b) return a > b
  }
  return false
}
