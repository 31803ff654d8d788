/**
 * A result text too large for one row, cut into parts that each hold at most `maxBytes` bytes of UTF-8 (D1
 * measures a row in UTF-8 bytes, not in UTF-16 units: 733,331 "€" were its largest string locally, 2,199,993
 * bytes). A cut never falls inside a surrogate pair: its halves stored apart would each become U+FFFD, and the
 * parts joined would no longer be the text. A lone surrogate counts the 3 bytes of the U+FFFD the driver
 * writes for it (render has replaced them before a result is stored).
 */

/**
 * The part size of the dialects without a row allowance (SQLite, Postgres): a stored output is read back, and
 * sent to a client that downloads it, a part at a time (GET /v1/executions/:id/output streams it), so a client
 * that does not read holds about one part of the server's memory, not the whole text.
 */
export const RESULT_PART_BYTES = 64 * 1024

const encoder = new TextEncoder()

/** the text's parts in order; one part, the text itself, when it fits */
export const splitUtf8 = (text: string, maxBytes: number): string[] => {
  // every UTF-16 unit is at most 3 bytes of UTF-8 (a pair is 4 bytes for 2 units)
  if (text.length * 3 <= maxBytes) return [text]
  if (!(maxBytes >= 4)) throw new RangeError(`a result part must hold at least 4 bytes (got ${maxBytes})`)
  const parts: string[] = []
  const scratch = new Uint8Array(maxBytes)
  for (let start = 0; start < text.length; ) {
    // encodeInto stops before the first character that does not fit, never inside a pair, and encodes a lone
    // surrogate as U+FFFD. A slice of `maxBytes` units that ends in half a pair cannot fit whole (every unit is a
    // byte at least, that half 3), so the half is never taken without its other half.
    const { read } = encoder.encodeInto(text.slice(start, start + maxBytes), scratch)
    parts.push(text.slice(start, start + read))
    start += read
  }
  return parts
}
