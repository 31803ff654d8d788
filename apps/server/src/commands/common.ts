/** What the commands share: the default database, the options several take, and how a command fails. */
import { SYNC_TTL_FORM, parseSyncTtl } from "../flags/sync-ttl.js"
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs"
import { resolve } from "node:path"
import { isPostgresUrl } from "../database/database-shape.js"
import { UsageError } from "../usage-error.js"

export { DEFAULT_DB, defaultDb } from "../database/default-db.js"

/** stops the command: its user's mistake, `switchboard: <message>`, exit 2 */
export const fail = (message: string): never => {
  throw new UsageError(message)
}

/** stops the command as `fail` does, the command's usage after the message */
export const usageError = (message: string): never => {
  throw new UsageError(message, true)
}

/** --sync-ttl in milliseconds; anything else stops the command naming the flag */
export const parseDuration = (text: string) =>
  parseSyncTtl(text) ?? fail(`--sync-ttl must be ${SYNC_TTL_FORM} (got "${text}")`)

/** A SQLite file that is not there yet: `serve` and `demo` create it, every other command refuses it. */
export const isMissingFile = (db: string) => !isPostgresUrl(db) && db !== ":memory:" && db !== "" && !existsSync(db)

/** the first 16 bytes of every SQLite database file (https://www.sqlite.org/fileformat.html#the_database_header) */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1")

const startsLikeSqlite = (path: string) => {
  const head = Buffer.alloc(SQLITE_HEADER.length)
  const fd = openSync(path, "r")
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER)
  } finally {
    closeSync(fd)
  }
}

/** Why the file at `db` is not a catalog, or undefined when it is a SQLite database. */
const notACatalog = (db: string): string | undefined => {
  const path = resolve(db)
  const stat = statSync(db, { throwIfNoEntry: false })
  if (!stat)
    return `no catalog database at ${path}: check --db (\`switchboard init\`, \`serve\` or \`demo\` creates a new one)`
  if (stat.isDirectory()) return `${path} is a directory, not a catalog database: check --db`
  if (!stat.isFile()) return `${path} is not a regular file, not a catalog database: check --db`
  if (stat.size === 0) return `${path} is an empty file, not a catalog database: check --db`
  if (!startsLikeSqlite(db))
    return `${path} is not a SQLite database (it does not start with "SQLite format 3"): check --db`
  return undefined
}

/**
 * The database a command that only uses a catalog opens: a mistyped path is an error, not a new empty catalog,
 * and so is a directory, an empty file or a file that is not SQLite, which SQLite would otherwise
 * turn into a catalog or fail on with "file is not a database". Checked before anything is opened, so nothing
 * is created. Postgres URLs and :memory: are not files.
 */
export const existingCatalog = (db: string): string => {
  if (isPostgresUrl(db) || db === ":memory:" || db === "") return db
  const problem = notACatalog(db)
  return problem === undefined ? db : fail(problem)
}
