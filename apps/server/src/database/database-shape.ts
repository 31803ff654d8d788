/**
 * What a catalog database is to the host, and how `--db` names one: a postgres:// URL, or else a SQLite file path.
 * Its own module, so that telling them apart loads no driver (catalog-database.ts loads the one it opens).
 */
import type { CatalogStore } from "@switchboard/core"

export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//.test(db)

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
