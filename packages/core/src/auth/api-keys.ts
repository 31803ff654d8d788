/**
 * API keys: created once and shown once; only their SHA-256 is stored (node:crypto on Node, else Web Crypto).
 * A key is `sb_` and 32 random bytes in base64url.
 */
import type { ApiKeyRow, CatalogStore } from "../catalog/rows.js"
import { parseScopes } from "./scopes.js"
import type { Scope } from "./scopes.js"

export type { ApiKeyRow }

const toHex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("")

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")

/** The longest bearer token `verify` looks up; a longer one is no key (and is not hashed). */
export const MAX_API_KEY_LENGTH = 200

/** node:crypto's hash, where the host has one (`process.getBuiltinModule` needs no import, so this runs on Workers) */
type NodeHash = { createHash(algorithm: "sha256"): { update(text: string): { digest(encoding: "hex"): string } } }
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => NodeHash | undefined } }
).process?.getBuiltinModule?.("node:crypto")

/** The key's SHA-256 in hex. On Node, Web Crypto's digest is a thread-pool job: a hop for every request with a key. */
export const hashKey = async (key: string): Promise<string> =>
  nodeCrypto
    ? nodeCrypto.createHash("sha256").update(key).digest("hex")
    : toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)))

export const createApiKeyService = (
  store: Pick<CatalogStore, "insertApiKey" | "findApiKey" | "listApiKeys" | "revokeApiKey">,
  now: () => number = Date.now,
) => ({
  /**
   * Returns the key itself: this is the only time it is ever seen. `scopes` must name at least one of
   * read, execute, admin (./scopes.ts); anything else throws, so no new row holds a scope nobody checks.
   */
  async create(
    name: string,
    scopes: readonly Scope[],
  ): Promise<{ id: string; name: string; key: string; scopes: Scope[]; createdAt: number }> {
    const parsed = parseScopes(scopes)
    if (!parsed.ok) throw new Error(parsed.error.message)
    const key = `sb_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`
    const id = crypto.randomUUID()
    const createdAt = now()
    await store.insertApiKey({ id, name, hash: await hashKey(key), scopes: parsed.value, createdAt, revokedAt: null })
    return { id, name, key, scopes: parsed.value, createdAt }
  },

  /** The live key this bearer token names, or null (unknown, revoked, or not a key at all). */
  async verify(token: string): Promise<ApiKeyRow | null> {
    if (!token.startsWith("sb_") || token.length > MAX_API_KEY_LENGTH) return null
    const row = await store.findApiKey(await hashKey(token))
    return row && row.revokedAt === null ? row : null
  },

  /** Every key, revoked ones too, oldest first; each row holds the key's hash, which no answer may show. */
  list: () => store.listApiKeys(),
  /** False when there is no such key. A revoked key stays revoked, and keeps the time of its first revocation. */
  revoke: (id: string) => store.revokeApiKey(id, now()),
})

export type ApiKeyService = ReturnType<typeof createApiKeyService>
