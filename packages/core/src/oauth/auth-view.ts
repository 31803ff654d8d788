/** What a source's view shows of its OAuth login: its state, when its token expires, its scopes; never a token. */
import type { SourceAuthRow, SourceAuthStatus } from "../catalog/oauth-rows.js"

export interface SourceAuthView {
  /**
   * `needs_login`: none made yet; `expired`: it ended for good (a refresh refused, the grant revoked); `no_token`: a
   * client-credentials source whose first token has not been asked for yet (its next call or sync asks for one)
   */
  status: SourceAuthStatus | "needs_login" | "no_token"
  /** when the access token expires (ISO 8601); null when unknown or none */
  expiresAt: string | null
  scopes: string[]
}

/** `machine`: the source uses the client credentials grant, which needs no person's login, only a token asked for. */
export const authViewOf = (row: SourceAuthRow | null, machine = false): SourceAuthView => ({
  status: row?.status ?? (machine ? "no_token" : "needs_login"),
  expiresAt: row?.expiresAt ? new Date(row.expiresAt).toISOString() : null,
  scopes: row?.scopes ? row.scopes.split(" ").filter(Boolean) : [],
})
