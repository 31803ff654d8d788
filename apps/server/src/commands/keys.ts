/** `switchboard keys create|list|revoke`: API keys, in the database alone (no host, no sandbox). */
import { parseArgs } from "node:util"
import { SCOPES, createApiKeyService, effectiveScope, parseScopes } from "@switchboard/core"
import { openCatalogDatabase } from "../catalog-database.js"
import { dbOption, existingCatalog, fail } from "./common.js"

const keysUsage = `keys create <name> --scope ${SCOPES.join("|")} | keys list | keys revoke <id>   (--db as for serve)`

// stored scopes as they are; a key from before scopes were checked holds "*", which is admin
const shown = (scopes: unknown) =>
  Array.isArray(scopes) && scopes.every((s) => (SCOPES as readonly unknown[]).includes(s))
    ? scopes.join(",")
    : `${effectiveScope(scopes)} (stored ${JSON.stringify(scopes)})`

export const keysCommand = async (args: string[]) => {
  const { values, positionals } = parseArgs({
    args,
    options: { ...dbOption, scope: { type: "string", multiple: true } },
    allowPositionals: true,
  })
  const [action, argument] = positionals
  // checked before the database is opened: a wrong scope changes nothing
  const scopes = action === "create" ? parseScopes(values.scope ?? []) : null
  if (scopes && !scopes.ok)
    fail(
      `${values.scope === undefined ? `keys create needs --scope (${SCOPES.join(", ")})` : scopes.error.message}\n  ${keysUsage}`,
    )
  if (!(action === "create" && argument) && action !== "list" && !(action === "revoke" && argument)) fail(keysUsage)
  const database = await openCatalogDatabase(existingCatalog(values.db))
  const keys = createApiKeyService(database.store)
  try {
    if (action === "create" && argument && scopes?.ok) {
      const created = await keys.create(argument, scopes.value)
      process.stdout.write(`${created.key}\n`)
      process.stderr.write(
        `key "${created.name}" (id ${created.id}, scopes ${created.scopes.join(",")}) created; it is shown only this once\n`,
      )
    } else if (action === "list") {
      for (const key of await keys.list())
        process.stdout.write(
          `${key.id}\t${key.name}\t${shown(key.scopes)}\t${key.revokedAt === null ? "live" : "revoked"}\t${new Date(key.createdAt).toISOString()}\n`,
        )
    } else if (action === "revoke" && argument && !(await keys.revoke(argument))) {
      fail(`no key with id "${argument}"`)
    }
  } finally {
    await database.close()
  }
  return 0
}
