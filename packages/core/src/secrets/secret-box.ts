/**
 * AES-256-GCM through Web Crypto (so it runs on Node and on Workers alike): one secret string in, one sealed
 * string out. A sealed value is `enc:v1:<key id>:<iv>:<ciphertext>` (base64url, no padding), with a fresh
 * 96-bit IV per value (NIST SP 800-38D's recommended size for GCM) and additional authenticated data that
 * binds it to where it is stored, so a value copied to another source or field does not open.
 * The key id is the first 8 bytes of the key's SHA-256, hex: enough to say "sealed with another key".
 */
export const SEALED_PREFIX = "enc:v1:"
export const SECRET_KEY_BYTES = 32

export interface SecretBox {
  /** the key's fingerprint, as written in every value it seals */
  readonly keyId: string
  seal(plaintext: string, aad: string): Promise<string>
  /** the plaintext, or why it cannot be had; never throws for a bad value */
  open(sealed: string, aad: string): Promise<OpenResult>
}

export type OpenResult =
  | { ok: true; plaintext: string }
  /** `other_key`: sealed with a key whose id is `keyId`; `corrupt`: this key's id, but it does not authenticate; `malformed`: not a sealed value */
  | { ok: false; reason: "other_key" | "corrupt" | "malformed"; keyId?: string }

export const isSealed = (value: unknown): value is string =>
  typeof value === "string" && value.startsWith(SEALED_PREFIX)

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** base64 or base64url, padded or not; null for anything else */
export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> | null => {
  const body = text
    .trim()
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/={0,2}$/, "")
  if (!/^[A-Za-z0-9+/]*$/.test(body) || body.length % 4 === 1) return null
  const binary = atob(body + "=".repeat((4 - (body.length % 4)) % 4))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

export const encodeSecretKey = (key: Uint8Array): string => btoa(String.fromCharCode(...key))

/** A new random key, for a host that has none yet. */
export const generateSecretKey = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(SECRET_KEY_BYTES))

/** The key from its text form (32 bytes, base64 or base64url); the message never repeats the text. */
export const parseSecretKey = (
  text: string,
): { ok: true; key: Uint8Array<ArrayBuffer> } | { ok: false; message: string } => {
  const key = fromBase64(text)
  if (!key)
    return {
      ok: false,
      message: `must be ${SECRET_KEY_BYTES} random bytes in base64 or base64url (it is not base64); make one with: openssl rand -base64 32`,
    }
  if (key.length !== SECRET_KEY_BYTES)
    return {
      ok: false,
      message: `must be ${SECRET_KEY_BYTES} random bytes in base64 or base64url (it decodes to ${key.length} bytes); make one with: openssl rand -base64 32`,
    }
  return { ok: true, key }
}

const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

export const createSecretBox = async (raw: Uint8Array<ArrayBuffer>): Promise<SecretBox> => {
  if (raw.length !== SECRET_KEY_BYTES) throw new Error(`a secret key is ${SECRET_KEY_BYTES} bytes (got ${raw.length})`)
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"])
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw))
  const keyId = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("")

  return {
    keyId,
    async seal(plaintext, aad) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const ciphertext = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: utf8.encode(aad) },
        key,
        utf8.encode(plaintext),
      )
      return `${SEALED_PREFIX}${keyId}:${toBase64Url(iv)}:${toBase64Url(new Uint8Array(ciphertext))}`
    },
    async open(sealed, aad) {
      const parts = sealed.startsWith(SEALED_PREFIX) ? sealed.slice(SEALED_PREFIX.length).split(":") : []
      if (parts.length !== 3) return { ok: false, reason: "malformed" }
      const [id, ivText, ciphertextText] = parts as [string, string, string]
      if (id !== keyId) return { ok: false, reason: "other_key", keyId: id }
      const iv = fromBase64(ivText)
      const ciphertext = fromBase64(ciphertextText)
      if (!iv || iv.length !== 12 || !ciphertext) return { ok: false, reason: "malformed" }
      try {
        const plaintext = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv, additionalData: utf8.encode(aad) },
          key,
          ciphertext,
        )
        return { ok: true, plaintext: fromUtf8.decode(plaintext) }
      } catch {
        // GCM's tag did not verify: another field's value, or bytes changed at rest
        return { ok: false, reason: "corrupt", keyId: id }
      }
    },
  }
}
