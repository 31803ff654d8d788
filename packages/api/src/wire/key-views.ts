/**
 * A stored API key as the API shows it (never its hash): one definition, for the routes (../routes/keys.ts) and for
 * the CLI's `keys list --json`, which answers as GET /v1/keys does. No hono here, so the CLI's bundle takes only this.
 */
import * as Auth from "@switchboard/core/auth"
import type { KeyView } from "./keys.js"

const isoOrNull = (at: number | null) => (at === null ? null : new Date(at).toISOString())

export const keyViewOf = (row: Omit<Auth.ApiKeyRow, "hash">): KeyView => ({
  id: row.id,
  name: row.name,
  // a row written before scopes were checked may hold a bare "*"
  scopes: Array.isArray(row.scopes) ? row.scopes.map(String) : [String(row.scopes)],
  scope: Auth.effectiveScope(row.scopes),
  createdAt: new Date(row.createdAt).toISOString(),
  revokedAt: isoOrNull(row.revokedAt),
})
