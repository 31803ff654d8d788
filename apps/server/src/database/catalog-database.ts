/**
 * Picks the catalog's database from `--db`: a postgres:// URL, or else a SQLite file path. Each driver is loaded
 * only when its database is opened: a SQLite host never loads postgres.js, nor a Postgres one better-sqlite3.
 */
import * as Catalog from "@switchboard/core/catalog"
import { isPostgresUrl } from "./database-shape.js"
import type { CatalogDatabase, CatalogDatabaseOptions } from "./database-shape.js"

export type { CatalogDatabase, CatalogDatabaseOptions }

export const openCatalogDatabase = async (
  db: string,
  options: CatalogDatabaseOptions = {},
): Promise<CatalogDatabase> => {
  if (isPostgresUrl(db)) {
    const { openPostgresCatalog } = await import("./postgres-database.js")
    return openPostgresCatalog(db, { lockWaitMs: options.busyWaitMs })
  }
  const { openSqlite } = await import("./sqlite-database.js")
  const sqlite = openSqlite(db)
  const store = Catalog.createSqliteCatalogStore(sqlite.db, {
    busyWaitMs: options.busyWaitMs,
    fileFault: sqlite.fileFault,
  })
  // /readyz looks at the path itself, not only at what the watch last saw
  const checkReadiness = () => (sqlite.checkFiles?.(), store.checkReadiness())
  return {
    store: { ...store, checkReadiness },
    dialect: "sqlite",
    checkpoint: sqlite.checkpoint,
    close: async () => void sqlite.close(),
  }
}
