/** What a source's view shows of its OAuth login: its state, when its token expires, its scopes; never a token. */
import type { SourceAuthRow, SourceAuthStatus } from "../catalog/oauth-rows.js"

export interface SourceAuthView {
  /** `needs_login`: none made yet; `expired`: it ended for good (a refresh refused, the grant revoked) */
  status: SourceAuthStatus | "needs_login"
  /** when the access token expires (ISO 8601); null when unknown or none */
  expiresAt: string | null
  scopes: string[]
}

/**
 * `machine`: the source uses the client credentials grant, which needs no person: without a stored grant yet (its
 * first token is asked for when it is first reached) it is `connected` all the same.
 */
export const authViewOf = (row: SourceAuthRow | null, machine = false): SourceAuthView => ({
  status: row?.status ?? (machine ? "connected" : "needs_login"),
  expiresAt: row?.expiresAt ? new Date(row.expiresAt).toISOString() : null,
  scopes: row?.scopes ? row.scopes.split(" ").filter(Boolean) : [],
})
