/**
 * A CatalogStore whose sources' secrets are encrypted at rest. It seals the values at the paths the source's
 * plugin names (`SourcePlugin.secretFields`) on every write of a config, and opens them on every read, so the
 * database holds only `enc:v1:…` strings while the rest of core and the plugins see plaintext, in memory only.
 * A value that does not open (another key, or changed at rest) becomes a placeholder and the row carries
 * `secretsError`, which names the source and what to do; such a row is never handed to a plugin.
 */
import type { SourcePlugin } from "../seams.js"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { isSealed } from "./secret-box.js"
import type { SecretBox } from "./secret-box.js"

/** What an unreadable secret reads as: never a value any source would accept. */
export const UNREADABLE_SECRET = "<unreadable: sealed with another key>"

export interface SealedStoreOptions {
  store: CatalogStore
  box: SecretBox
  /** what it needs of each kind's plugin: where its configs hold secrets */
  plugins: readonly Pick<SourcePlugin, "kind" | "secretFields">[]
}

export interface SealedCatalogStore extends CatalogStore {
  /**
   * Seals every secret still stored in plaintext (a database written before secrets were encrypted) and
   * reports the sources whose secrets do not open with this key. The host runs it once at boot.
   */
  sealStoredSecrets(now?: number): Promise<{ sealed: string[]; unreadable: { namespace: string; message: string }[] }>
}

/** The authenticated data of a value: a sealed value opens only as the same field of the same source. */
export const secretAad = (namespace: string, path: readonly string[]) =>
  `switchboard/source-secret\u0000${namespace}\u0000${JSON.stringify(path)}`

const getAt = (value: unknown, path: readonly string[]): unknown => {
  let at = value
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

const setAt = (value: unknown, path: readonly string[], next: string) => {
  let at = value as Record<string, unknown>
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>
  at[path[path.length - 1]!] = next
}

/** decrypted values by sealed text: a source's config is read on every execution, and AES-GCM costs a few µs a value */
const CACHE_LIMIT = 4096

export const createSealedCatalogStore = ({ store, box, plugins }: SealedStoreOptions): SealedCatalogStore => {
  const secretPaths = (row: Pick<SourceRow, "kind" | "config">) =>
    plugins.find((p) => p.kind === row.kind)?.secretFields?.(row.config) ?? []
  const opened = new Map<string, string>()

  /**
   * A config from the service is plaintext throughout, so every value is sealed, even one that happens to begin
   * with `enc:v1:`; only the boot pass over stored rows (`onlyPlaintext`) leaves sealed values as they are.
   */
  const sealConfig = async (
    { namespace, kind, config }: Pick<SourceRow, "namespace" | "kind" | "config">,
    { onlyPlaintext = false } = {},
  ): Promise<unknown> => {
    const paths = secretPaths({ kind, config }).filter(
      (path) => typeof getAt(config, path) === "string" && !(onlyPlaintext && isSealed(getAt(config, path))),
    )
    if (paths.length === 0) return config
    const copy = structuredClone(config)
    for (const path of paths)
      setAt(copy, path, await box.seal(getAt(config, path) as string, secretAad(namespace, path)))
    return copy
  }

  const explain = (namespace: string, failures: { path: string[]; keyId?: string; reason: string }[]) => {
    const fields = failures.map((f) => f.path.join(".")).join(", ")
    const otherKey = failures.find((f) => f.reason === "other_key")?.keyId
    const why = otherKey
      ? `they were encrypted with another key (key id ${otherKey}; this server's key id is ${box.keyId})`
      : `they do not decrypt with this server's key (key id ${box.keyId}): changed at rest or copied from another source`
    return (
      `the secrets of source "${namespace}" (${fields}) cannot be read: ${why}. Send new values with PATCH ` +
      `/v1/sources/${namespace}, or restart the server with the key they were encrypted with (SWITCHBOARD_SECRET_KEY or its key file)`
    )
  }

  const openRow = async (row: SourceRow): Promise<SourceRow> => {
    const paths = secretPaths(row).filter((path) => isSealed(getAt(row.config, path)))
    if (paths.length === 0) return row // nothing sealed: no secrets, or plaintext left by an older build (sealed at boot)
    const config = structuredClone(row.config)
    const failures: { path: string[]; keyId?: string; reason: string }[] = []
    for (const path of paths) {
      const sealed = getAt(row.config, path) as string
      const aad = secretAad(row.namespace, path)
      const cacheKey = `${aad}\u0000${sealed}`
      let plaintext = opened.get(cacheKey)
      if (plaintext === undefined) {
        const result = await box.open(sealed, aad)
        if (!result.ok) {
          failures.push({ path, keyId: result.keyId, reason: result.reason })
          setAt(config, path, UNREADABLE_SECRET)
          continue
        }
        plaintext = result.plaintext
        if (opened.size >= CACHE_LIMIT) opened.clear()
        opened.set(cacheKey, plaintext)
      }
      setAt(config, path, plaintext)
    }
    return failures.length > 0 ? { ...row, config, secretsError: explain(row.namespace, failures) } : { ...row, config }
  }

  return {
    ...store,
    async listSources() {
      return Promise.all((await store.listSources()).map(openRow))
    },
    async getSource(namespace) {
      const row = await store.getSource(namespace)
      return row ? openRow(row) : null
    },
    async insertSource(row) {
      const { secretsError: _, ...plain } = row
      await store.insertSource({ ...plain, config: await sealConfig(row) })
    },
    async updateSourceConfig(update) {
      await store.updateSourceConfig({
        ...update,
        config: await sealConfig({ ...update.source, config: update.config }),
      })
    },
    async sealStoredSecrets(now = Date.now()) {
      const sealed: string[] = []
      const unreadable: { namespace: string; message: string }[] = []
      for (const row of await store.listSources()) {
        const config = await sealConfig(row, { onlyPlaintext: true })
        if (config !== row.config) {
          // only if no other server wrote the row meanwhile (a PATCH there must not be undone by this)
          await store.updateSourceConfig({ source: row, config, at: now, ifUpdatedAt: row.updatedAt })
          sealed.push(row.namespace)
        }
        const checked = await openRow({ ...row, config })
        if (checked.secretsError) unreadable.push({ namespace: row.namespace, message: checked.secretsError })
      }
      return { sealed, unreadable }
    },
  }
}
