/** What the commands share: the default database, the options several take, and how a command fails. */
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { isPostgresUrl } from "../database-shape.js"

export const DEFAULT_DB = "./.switchboard/switchboard.db"

export const dbOption = {
  // an empty variable is an unset one, not a path
  db: { type: "string", default: process.env.SWITCHBOARD_DB || process.env.DATABASE_URL || DEFAULT_DB },
} as const

export const fail = (message: string): never => {
  process.stderr.write(`switchboard: ${message}\n`)
  process.exit(2)
}

/** "90", "90s", "15m", "1h" -> milliseconds */
export const parseDuration = (text: string) => {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim())
  if (!match) return fail(`--sync-ttl must be a duration such as 900, 90s, 15m or 1h (got "${text}")`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s") as "ms" | "s" | "m" | "h"]
  return Number(match[1]) * unit
}

/** A SQLite file that is not there yet: `serve` and `demo` create it, every other command refuses it. */
export const isMissingFile = (db: string) => !isPostgresUrl(db) && db !== ":memory:" && db !== "" && !existsSync(db)

/**
 * The database a command that only uses a catalog opens: a mistyped path is an error, not a new empty catalog
 * (issue 17). Checked before anything is opened, so nothing is created.
 */
export const existingCatalog = (db: string): string =>
  isMissingFile(db)
    ? fail(`no catalog database at ${resolve(db)}: check --db (\`switchboard serve\` or \`demo\` creates a new one)`)
    : db
