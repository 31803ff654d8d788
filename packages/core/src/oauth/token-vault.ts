/**
 * OAuth's secrets at rest: tokens, client secrets and PKCE verifiers are sealed with the host's secret box before
 * they reach the catalog, each bound (AES-GCM's additional data) to its source and field, so a value copied to
 * another row or source does not open. A value that does not open reads as absent: the grant then needs a login.
 */
import type { SecretBox } from "../secrets/secret-box.js"

export type VaultField =
  | "access_token"
  | "refresh_token"
  | "client_secret"
  | `registered_client_secret:${string}`
  | `code_verifier:${string}`

const aad = (sourceId: string, field: VaultField) => `switchboard/oauth\u0000${sourceId}\u0000${field}`

export interface TokenVault {
  seal(sourceId: string, field: VaultField, value: string): Promise<string>
  sealOrNull(sourceId: string, field: VaultField, value: string | null | undefined): Promise<string | null>
  /** the plaintext, or null when there is none or it does not open with this server's key */
  open(sourceId: string, field: VaultField, sealed: string | null): Promise<string | null>
}

export const createTokenVault = (box: SecretBox): TokenVault => {
  const seal = (sourceId: string, field: VaultField, value: string) => box.seal(value, aad(sourceId, field))
  return {
    seal,
    sealOrNull: async (sourceId, field, value) => (value ? seal(sourceId, field, value) : null),
    async open(sourceId, field, sealed) {
      if (!sealed) return null
      const opened = await box.open(sealed, aad(sourceId, field))
      return opened.ok ? opened.plaintext : null
    },
  }
}
