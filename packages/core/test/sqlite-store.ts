/** A migrated SQLite file in a temporary folder, with the store over it: for tests that need a real database. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { createSqliteCatalogStore } from "../src/index.js"

export const openSqliteStore = () => {
  const dir = mkdtempSync(join(tmpdir(), "store-"))
  const sqlite = new Database(join(dir, "catalog.db"))
  sqlite.pragma("journal_mode = WAL")
  sqlite.pragma("foreign_keys = ON")
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  return {
    dir,
    store: createSqliteCatalogStore(db),
    close: () => {
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
