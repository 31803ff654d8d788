/**
 * `switchboard keys create|list|revoke` (API keys) and `switchboard init` (a new catalog and its first admin key),
 * in the database alone: no host, no sandbox.
 */
import { resolve } from "node:path"
import { keyViewOf } from "@switchboard/api"
import * as Auth from "@switchboard/core/auth"
import { openCatalogDatabase } from "../database/catalog-database.js"
import type { CommandInput } from "../cli/define.js"
import type { initFlags, keysCreateFlags, keysFlags, keysListFlags } from "../cli/command-flags.js"
import { displayDb } from "../database/display-db.js"
import { isPostgresUrl } from "../database/database-shape.js"
import { printJson } from "./catalog-place.js"
import { defaultDb, existingCatalog, fail, isMissingFile, usageError } from "./common.js"
import { table, when } from "./table.js"

// stored scopes as they are; a key from before scopes were checked holds "*", which is admin
const shown = (scopes: unknown) =>
  Array.isArray(scopes) && scopes.every((s) => (Auth.SCOPES as readonly unknown[]).includes(s))
    ? scopes.join(",")
    : `${Auth.effectiveScope(scopes)} (stored ${JSON.stringify(scopes)})`

const withKeys = async <A>(db: string, work: (keys: ReturnType<typeof Auth.createApiKeyService>) => Promise<A>) => {
  const database = await openCatalogDatabase(db)
  try {
    return await work(Auth.createApiKeyService(database.store))
  } finally {
    await database.close()
  }
}

/** the key on stdout, alone, so that `> file` or `$(…)` takes it; what was made on stderr */
const printCreated = (created: { key: string; name: string; id: string; scopes: readonly string[] }) => {
  process.stdout.write(`${created.key}\n`)
  process.stderr.write(
    `key "${created.name}" (id ${created.id}, scopes ${created.scopes.join(",")}) created; it is shown only this once\n`,
  )
}

export const keysCreateCommand = async ({ values, args }: CommandInput<typeof keysCreateFlags>) => {
  // checked before the database is opened: a wrong scope changes nothing
  const scopes = Auth.parseScopes(values.scope ?? [])
  if (!scopes.ok)
    usageError(
      values.scope === undefined ? `keys create needs --scope (${Auth.SCOPES.join(", ")})` : scopes.error.message,
    )
  const db = existingCatalog(values.db ?? defaultDb())
  await withKeys(db, async (keys) => printCreated(await keys.create(args[0]!, scopes.ok ? scopes.value : [])))
  return 0
}

export const keysListCommand = async ({ values }: CommandInput<typeof keysListFlags>) => {
  const listed = await withKeys(existingCatalog(values.db ?? defaultDb()), (keys) => keys.list())
  if (values.json) printJson({ keys: listed.map(keyViewOf) })
  else
    process.stdout.write(
      table(
        ["ID", "NAME", "SCOPES", "STATUS", "CREATED"],
        listed.map((key) => [
          key.id,
          key.name,
          shown(key.scopes),
          key.revokedAt === null ? "live" : "revoked",
          when(key.createdAt),
        ]),
      ),
    )
  return 0
}

export const keysRevokeCommand = async ({ values, args }: CommandInput<typeof keysFlags>) => {
  const revoked = await withKeys(existingCatalog(values.db ?? defaultDb()), (keys) => keys.revoke(args[0]!))
  return revoked ? 0 : fail(`no key with id "${args[0]}"`)
}

/**
 * A new catalog, migrated, with one admin key, printed once: the way into a fresh deployment without a server
 * run first nor a shell on the database. A SQLite file that is there already is refused (a typo must not look
 * like a success), as is a Postgres database that has keys: `keys create` makes more.
 */
export const initCommand = async ({ values }: CommandInput<typeof initFlags>) => {
  const db = values.db ?? defaultDb()
  const more = `keys create <name> --scope admin${values.db === undefined ? "" : ` --db ${displayDb(db)}`}`
  if (!isPostgresUrl(db) && !isMissingFile(db))
    fail(`there is a catalog at ${displayDb(db)} already; make another key with: switchboard ${more}`)
  const created = await withKeys(db, async (keys) => {
    if ((await keys.list()).length > 0) return undefined
    return keys.create(values.name, ["admin"])
  })
  if (!created) return fail(`the catalog at ${displayDb(db)} has keys already; make another with: switchboard ${more}`)
  process.stderr.write(
    `switchboard: created a new catalog database at ${isPostgresUrl(db) ? displayDb(db) : resolve(db)}\n`,
  )
  printCreated(created)
  return 0
}
