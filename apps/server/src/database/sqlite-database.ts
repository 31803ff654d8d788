/**
 * Opens the embedded SQLite catalog: creates its folder, applies drizzle/sqlite migrations, then the boot
 * safety net (ARCHITECTURE.md: data model): any nullable column the schema has and an older database lacks is added.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync, watch } from "node:fs"
import { dirname } from "node:path"
import Database from "better-sqlite3"
import { getTableConfig } from "drizzle-orm/sqlite-core"
import type { SQLiteTable } from "drizzle-orm/sqlite-core"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import * as Catalog from "@switchboard/core/catalog"
import { migrationsFolder } from "../build-outputs.js"

export const sqliteMigrationsFolder = migrationsFolder("sqlite")

/**
 * The database holds source configs, scripts and their results: only its owner may read it. A new file is
 * made 0600 before SQLite opens it, and SQLite's unix VFS gives the -wal and -shm files it makes the mode of
 * the database file (`findCreateFileMode` in os_unix.c), so they are 0600 as well. A file made by an older
 * build (0644 under the usual umask) is narrowed to 0600 when opened.
 */
const ownerOnly = (path: string) => {
  if (!existsSync(path)) closeSync(openSync(path, "a", 0o600))
}

const narrow = (path: string) => {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600)
    } catch {
      // absent (no WAL yet), or not ours to change: SQLite opened it, so we can read it either way
    }
  }
}

export const openSqlite = (path: string) => {
  const onDisk = path !== ":memory:" && path !== ""
  if (onDisk) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    ownerOnly(path)
  }
  const sqlite = new Database(path)
  sqlite.pragma("journal_mode = WAL")
  if (onDisk) narrow(path)
  // a row rewritten or deleted is zeroed on disk, not left in a free page: a secret sealed at boot leaves no
  // plaintext copy behind in the file
  sqlite.pragma("secure_delete = ON")
  // WAL + NORMAL: no fsync per commit (one execution record per execute, so it is most of a record's cost). A process crash
  // loses nothing committed; a power cut can lose the last commits, never corrupt the file.
  sqlite.pragma("synchronous = NORMAL")
  sqlite.pragma("foreign_keys = ON")
  // at boot nothing else is waiting on this thread: migrations may wait for another server's lock
  sqlite.pragma("busy_timeout = 5000")
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder: migrationsFolder("sqlite") })
  addMissingNullableColumns(sqlite)
  // serving, a wait inside SQLite would block the event loop (better-sqlite3 is synchronous): a locked file
  // fails at once, and the store tries again later without blocking (core's catalog/busy-retry.ts)
  sqlite.pragma("busy_timeout = 0")
  const files = onDisk ? watchFiles(path) : undefined
  return {
    db,
    sqlite,
    /** why the file must not be written (deleted or replaced since it was opened), or undefined; cheap */
    fileFault: files?.fault,
    /** the same, looking at the path now */
    checkFiles: files?.check,
    /** copies the WAL into the database file and empties it, so rows rewritten in place leave no old copy there */
    checkpoint: () => void sqlite.pragma("wal_checkpoint(TRUNCATE)"),
    close: () => {
      files?.close()
      sqlite.close()
    },
  }
}

/**
 * SQLite goes on writing to a database file (and its -wal) deleted or replaced while it is open: the writes
 * succeed, and vanish when the process ends. Only the path tells, so the files' identities are kept from the
 * open, and a watch on the database file (an unlink changes its link count, which inotify reports) looks again
 * when anything happens to it. `check` looks at once, for /readyz. Once found, the fault stays: the open file
 * is not the one at the path any more, and only a restart opens the right one.
 */
const watchFiles = (path: string) => {
  const identity = (file: string) => {
    const stat = statSync(file, { throwIfNoEntry: false })
    return stat && stat.nlink > 0 ? `${stat.dev}:${stat.ino}` : undefined
  }
  const opened = [path, `${path}-wal`].map((file) => ({ file, id: identity(file) }))
  let fault: string | undefined
  const check = () => {
    for (const { file, id } of opened) {
      if (fault !== undefined || id === undefined) break
      const now = identity(file)
      if (now !== id) {
        fault =
          `the database file ${file} was ${now === undefined ? "deleted" : "replaced"} while the server had it open: ` +
          "rows written now would be lost, so none are; restart the server to open the file at that path"
      }
    }
    return fault
  }
  let watcher: ReturnType<typeof watch> | undefined
  // a checkpoint writes the file in many pieces, each an event: look once per turn, however many arrived
  let scheduled = false
  const soon = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      check()
    })
  }
  try {
    watcher = watch(path, { persistent: false }, soon)
    watcher.on("error", soon)
  } catch {
    // no watch on this file system: /readyz still looks at the path
  }
  return { fault: () => fault, check, close: () => watcher?.close() }
}

/** Returns the columns it added, as `table.column`. */
export const addMissingNullableColumns = (sqlite: Database.Database): string[] => {
  const added: string[] = []
  for (const table of Object.values(Catalog.sqliteSchema) as SQLiteTable[]) {
    const config = getTableConfig(table)
    const present = new Set(
      (sqlite.prepare(`pragma table_info("${config.name}")`).all() as { name: string }[]).map((c) => c.name),
    )
    if (present.size === 0) continue
    for (const column of config.columns) {
      if (present.has(column.name) || column.notNull) continue
      sqlite.exec(`alter table "${config.name}" add column "${column.name}" ${column.getSQLType()}`)
      added.push(`${config.name}.${column.name}`)
    }
  }
  return added
}
