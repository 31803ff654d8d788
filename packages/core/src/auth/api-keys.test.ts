import { describe, expect, it } from "vitest"
import { hashKey } from "./api-keys.js"

const webCryptoHex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("")

describe("hashKey", () => {
  it("is the SHA-256 of the key's UTF-8 bytes, in lower-case hex, as Web Crypto gives it", async () => {
    // FIPS 180-2's first example
    expect(await hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // a stored hash made on one host must match a token checked on another: the same bytes for text past ASCII
    for (const key of ["sb_Zm9vYmFy-_", "sb_é☃😀", "sb_\u{10FFFF}"])
      expect(await hashKey(key)).toBe(await webCryptoHex(key))
  })
})
