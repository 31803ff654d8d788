/** Picks the catalog's database from `--db`: a postgres:// URL, or else a SQLite file path. */
import { createPgCatalogStore, createSqliteCatalogStore } from "@switchboard/core"
import type { CatalogStore } from "@switchboard/core"
import { isPostgresUrl, openPostgres } from "./postgres-database.js"
import { openSqlite } from "./sqlite-database.js"

export interface CatalogDatabase {
  store: CatalogStore
  dialect: "sqlite" | "postgres"
  /** SQLite: moves the WAL into the database file and truncates it (after secrets were sealed in place) */
  checkpoint?(): void
  close(): Promise<void>
}

export interface CatalogDatabaseOptions {
  /** how long a store call waits for another connection's lock: on the SQLite file, or on a Postgres row or table (default 5 s) */
  busyWaitMs?: number
}

export const openCatalogDatabase = async (
  db: string,
  options: CatalogDatabaseOptions = {},
): Promise<CatalogDatabase> => {
  if (isPostgresUrl(db)) {
    const postgres = await openPostgres(db, { lockWaitMs: options.busyWaitMs })
    return { store: createPgCatalogStore(postgres.db), dialect: "postgres", close: postgres.close }
  }
  const sqlite = openSqlite(db)
  const store = createSqliteCatalogStore(sqlite.db, { busyWaitMs: options.busyWaitMs, fileFault: sqlite.fileFault })
  // /readyz looks at the path itself, not only at what the watch last saw
  const checkReadiness = () => (sqlite.checkFiles?.(), store.checkReadiness())
  return {
    store: { ...store, checkReadiness },
    dialect: "sqlite",
    checkpoint: sqlite.checkpoint,
    close: async () => void sqlite.close(),
  }
}
