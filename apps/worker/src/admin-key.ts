/**
 * The first admin key is the operator's secret (SWITCHBOARD_ADMIN_KEY); it is stored in D1 like any other key,
 * once per isolate and never again: a key revoked over the API stays revoked, and a new secret adds a new key.
 */
import { hashKey } from "@switchboard/core"
import type { CatalogStore } from "@switchboard/core"

export const ADMIN_KEY_NAME = "admin (SWITCHBOARD_ADMIN_KEY)"

const stored = new Map<string, Promise<void>>()

const store = async (catalog: CatalogStore, adminKey: string, now: number) => {
  const hash = await hashKey(adminKey)
  if (await catalog.findApiKey(hash)) return
  const row = {
    id: crypto.randomUUID(),
    name: ADMIN_KEY_NAME,
    hash,
    scopes: ["admin"],
    createdAt: now,
    revokedAt: null,
  }
  // another isolate may store it between the read and this write: its row is as good as ours
  await catalog.insertApiKey(row).catch(async (cause) => {
    if (!(await catalog.findApiKey(hash))) throw cause
  })
}

export const ensureAdminKey = (catalog: CatalogStore, adminKey: string, now: number): Promise<void> => {
  let done = stored.get(adminKey)
  if (!done) {
    done = store(catalog, adminKey, now)
    stored.set(adminKey, done)
    done.catch(() => stored.delete(adminKey)) // the next request tries again
  }
  return done
}
