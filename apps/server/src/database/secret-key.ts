/**
 * The key that seals source secrets at rest (core's secret box). From SWITCHBOARD_SECRET_KEY when set: 32 bytes
 * in base64 or base64url, the same on every server that shares a catalog. Without it, a SQLite catalog gets a
 * key file beside its database (`catalog.db` → `catalog.key`), made on first start with mode 0600; a Postgres
 * catalog refuses to start, because the servers sharing it would each make a key of their own and could not
 * read one another's sources. An in-memory database gets a key that lives as long as it does.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import * as Secrets from "@switchboard/core/secrets"
import { isPostgresUrl } from "./database-shape.js"

export const SECRET_KEY_ENV = "SWITCHBOARD_SECRET_KEY"

export interface LoadedKey {
  key: Uint8Array<ArrayBuffer>
  /** where it came from, for the boot log: never the key */
  origin: string
  /** set when the key file was made by this start */
  created?: string
}

/** `x.db` → `x.key`; any other name gets `.key` appended. */
export const keyFileFor = (dbPath: string) => (dbPath.endsWith(".db") ? `${dbPath.slice(0, -3)}.key` : `${dbPath}.key`)

/** Writes the file whole or not at all (a hard link of a finished temp file): a second server starting at once reads it complete. */
const createKeyFile = (path: string): boolean => {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  writeFileSync(temp, `${Secrets.encodeSecretKey(Secrets.generateSecretKey())}\n`, { mode: 0o600, flag: "wx" })
  try {
    chmodSync(temp, 0o600) // the mode a process umask could only have narrowed; stated anyway
    linkSync(temp, path)
    return true
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") return false
    throw cause
  } finally {
    unlinkSync(temp)
  }
}

export const loadSecretKey = (db: string, fromEnv: string | undefined = process.env[SECRET_KEY_ENV]): LoadedKey => {
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const parsed = Secrets.parseSecretKey(fromEnv)
    if (!parsed.ok) throw new Error(`${SECRET_KEY_ENV} ${parsed.message}`)
    return { key: parsed.key, origin: SECRET_KEY_ENV }
  }
  if (isPostgresUrl(db)) {
    throw new Error(
      `a Postgres catalog needs ${SECRET_KEY_ENV}: the key that encrypts source secrets, the same on every server sharing the catalog ` +
        `(32 random bytes in base64; make one with: openssl rand -base64 32)`,
    )
  }
  if (db === ":memory:")
    return { key: Secrets.generateSecretKey(), origin: "an in-memory key (the database is in memory too)" }
  const path = keyFileFor(db)
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 }) // the database's folder, made here first
  const created = !existsSync(path) && createKeyFile(path)
  const parsed = Secrets.parseSecretKey(readFileSync(path, "utf8"))
  if (!parsed.ok) throw new Error(`the key file ${path} ${parsed.message}`)
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600)
  return { key: parsed.key, origin: `the key file ${path}`, ...(created ? { created: path } : {}) }
}

/**
 * The key, for a command that only reads the catalog: as `loadSecretKey`, but a key file is never made. Undefined
 * when there is none (an in-memory database, or a SQLite catalog without its key file), so no secret can be read.
 */
export const existingSecretKey = (
  db: string,
  fromEnv: string | undefined = process.env[SECRET_KEY_ENV],
): LoadedKey | undefined => {
  const fromFile = !(fromEnv !== undefined && fromEnv.trim() !== "") && !isPostgresUrl(db)
  if (fromFile && (db === ":memory:" || !existsSync(keyFileFor(db)))) return undefined
  return loadSecretKey(db, fromEnv)
}
