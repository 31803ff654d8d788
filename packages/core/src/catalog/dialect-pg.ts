/**
 * Postgres (postgres.js through drizzle). The shared query code runs on the Postgres builders and tables,
 * cast to the shape it is written against; transactions are drizzle's own.
 */
import { sql } from "drizzle-orm"
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core"
import type { CatalogStore } from "./rows.js"
import * as pgSchema from "./schema-pg.js"
import { createCatalogStore } from "./store.js"
import type { CatalogDb, CatalogTables } from "./store.js"

export type PgCatalogDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>

export const createPgCatalogStore = (pgDb: PgCatalogDb): CatalogStore =>
  createCatalogStore({
    db: pgDb as unknown as CatalogDb,
    tables: pgSchema as unknown as CatalogTables,
    transaction: (work) => pgDb.transaction((tx) => work(tx as unknown as CatalogDb)),
    // assigning a transaction id is a write: a standby refuses it
    probeWrite: async (tx) => {
      await (tx as unknown as PgCatalogDb).execute(sql`select pg_current_xact_id()`)
    },
    lockKey: async (tx, key) => {
      await (tx as unknown as PgCatalogDb).execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
    },
  })
