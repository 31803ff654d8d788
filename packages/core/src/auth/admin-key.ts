/**
 * The first admin key as an operator's secret, `SWITCHBOARD_ADMIN_KEY`: a host stores it (its SHA-256) as an admin
 * key when it is not stored yet, so a fresh deployment needs no shell on its database for its first key. The Worker
 * reads it from its secrets, the Node server from its environment at start. Stored once: a key revoked over the
 * API stays revoked (it is found, and not stored again), and a new secret adds a new key.
 */
import type { CatalogStore } from "../catalog/rows.js"
import { MAX_API_KEY_LENGTH, hashKey } from "./api-keys.js"

export const ADMIN_KEY_ENV = "SWITCHBOARD_ADMIN_KEY"
export const ADMIN_KEY_NAME = `admin (${ADMIN_KEY_ENV})`

/** what is wrong with a given admin key, or undefined: it must be a key `verify` would look up */
export const adminKeyProblem = (adminKey: string): string | undefined => {
  // core's verify looks up no token longer than this: a longer admin key would be stored and never work
  if (adminKey.length > MAX_API_KEY_LENGTH)
    return `${ADMIN_KEY_ENV} must be at most ${MAX_API_KEY_LENGTH} characters (it has ${adminKey.length})`
  if (!/^sb_[A-Za-z0-9_-]{32,}$/.test(adminKey))
    return `${ADMIN_KEY_ENV} must be sb_ followed by at least 32 base64url characters`
  return undefined
}

/** Stores the key as an admin key unless a key with its hash is stored already (live or revoked); true when it stored it. */
export const storeAdminKey = async (
  catalog: Pick<CatalogStore, "findApiKey" | "insertApiKey">,
  adminKey: string,
  now: number,
): Promise<boolean> => {
  const hash = await hashKey(adminKey)
  if (await catalog.findApiKey(hash)) return false
  const row = {
    id: crypto.randomUUID(),
    name: ADMIN_KEY_NAME,
    hash,
    scopes: ["admin"],
    createdAt: now,
    revokedAt: null,
  }
  // another host may store it between the read and this write: its row is as good as ours
  return catalog.insertApiKey(row).then(
    () => true,
    async (cause) => {
      if (!(await catalog.findApiKey(hash))) throw cause
      return false
    },
  )
}
