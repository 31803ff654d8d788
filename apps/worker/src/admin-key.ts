/**
 * The first admin key is the operator's secret (SWITCHBOARD_ADMIN_KEY); core's storeAdminKey stores it in D1 like
 * any other key, once per isolate and never again: a key revoked over the API stays revoked, and a new secret adds
 * a new key.
 */
import * as Auth from "@switchboard/core/auth"
import type { CatalogStore } from "@switchboard/core"

const stored = new Map<string, Promise<void>>()

export const ensureAdminKey = (catalog: CatalogStore, adminKey: string, now: number): Promise<void> => {
  let done = stored.get(adminKey)
  if (!done) {
    done = Auth.storeAdminKey(catalog, adminKey, now).then(() => {})
    stored.set(adminKey, done)
    done.catch(() => stored.delete(adminKey)) // the next request tries again
  }
  return done
}
