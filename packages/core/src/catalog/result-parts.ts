/**
 * A result text too large for one row, cut into parts that each hold at most `maxBytes` bytes of UTF-8 (D1
 * measures a row in UTF-8 bytes, not in UTF-16 units: 733,331 "€" were its largest string locally, 2,199,993
 * bytes). A cut never falls inside a surrogate pair: its halves stored apart would each become U+FFFD, and the
 * parts joined would no longer be the text. A lone surrogate counts the 3 bytes of the U+FFFD the driver
 * writes for it (render has replaced them before a result is stored).
 */

/** the text's parts in order; one part, the text itself, when it fits */
export const splitUtf8 = (text: string, maxBytes: number): string[] => {
  // every UTF-16 unit is at most 3 bytes of UTF-8 (a pair is 4 bytes for 2 units)
  if (text.length * 3 <= maxBytes) return [text]
  if (!(maxBytes >= 4)) throw new RangeError(`a result part must hold at least 4 bytes (got ${maxBytes})`)
  const parts: string[] = []
  let start = 0
  let bytes = 0
  for (let i = 0; i < text.length; ) {
    const unit = text.charCodeAt(i)
    let width = 1
    let units = 1
    if (unit >= 0x800) {
      const pair = unit <= 0xdbff && unit >= 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
      width = pair ? 4 : 3
      units = pair ? 2 : 1
    } else if (unit >= 0x80) width = 2
    if (bytes + width > maxBytes) {
      parts.push(text.slice(start, i))
      start = i
      bytes = 0
    }
    bytes += width
    i += units
  }
  parts.push(text.slice(start))
  return parts
}
