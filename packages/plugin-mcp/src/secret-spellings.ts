/**
 * A secret as a tool may hand it back encoded: base64 and base64url (alone, or inside a longer text, as Basic
 * auth's `user:secret` is), hex, and every byte percent-encoded. Matched without regard to case (config-secrets.ts,
 * `secretPattern`), so one lower-case hex and upper-case percent spelling stand for both cases. Web APIs only.
 */

/** an encoded spelling shorter than this is left: a few characters of base64 occur by chance */
const MIN_ENCODED_LENGTH = 6

const encoder = new TextEncoder()

const base64Of = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * The base64 characters that the secret's bytes alone decide, for each of the three offsets (mod 3) at which it
 * may sit in a longer text: a character that also holds bits of a neighbouring byte is left out.
 */
const base64Cores = (bytes: Uint8Array): string[] =>
  [0, 1, 2].map((offset) => {
    const placed = new Uint8Array(offset + bytes.length)
    placed.set(bytes, offset)
    return base64Of(placed).slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6))
  })

export const encodedSpellings = (secret: string): string[] => {
  const bytes = encoder.encode(secret)
  const hexDigits = [...bytes].map((byte) => byte.toString(16).padStart(2, "0"))
  const base64 = base64Cores(bytes)
  const spellings = [
    hexDigits.join(""),
    hexDigits.map((digits) => `%${digits}`).join(""),
    ...base64,
    ...base64.map((core) => core.replaceAll("+", "-").replaceAll("/", "_")),
  ]
  return spellings.filter((spelling) => spelling.length >= MIN_ENCODED_LENGTH)
}
