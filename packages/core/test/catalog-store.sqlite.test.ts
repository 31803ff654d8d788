import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { SqliteStoreOptions } from "../src/catalog/dialect-sqlite.js"
import { catalogStoreContract } from "./catalog-store.contract.js"

const openFile = (options: SqliteStoreOptions) => async () => {
  const dir = mkdtempSync(join(tmpdir(), "store-"))
  const path = join(dir, "catalog.db")
  const connect = () => {
    const sqlite = new Database(path)
    sqlite.pragma("foreign_keys = ON")
    // as the host serves: a lock held by the other connection fails at once, and the store waits without blocking
    sqlite.pragma("busy_timeout = 0")
    return sqlite
  }
  const sqlite = connect()
  migrate(drizzle(sqlite), { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  const others: Database.Database[] = []
  return {
    store: createSqliteCatalogStore(drizzle(sqlite), options),
    second: () => {
      const other = connect()
      others.push(other)
      return createSqliteCatalogStore(drizzle(other), options)
    },
    exec: async (statement: string) => void sqlite.exec(statement),
    close: async () => {
      for (const connection of [sqlite, ...others]) connection.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

// results over 64 KiB of UTF-8 go in parts (the default), as over D1's row allowance
catalogStoreContract("a SQLite file, results in 64 KiB parts", openFile({}))
// as rows were stored before results were cut into parts
catalogStoreContract("a SQLite file, every result in its row", openFile({ resultPartBytes: Number.POSITIVE_INFINITY }))
