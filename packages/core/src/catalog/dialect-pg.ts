/**
 * Postgres (postgres.js through drizzle). The shared query code runs on the Postgres builders and tables, cast
 * to the shape it is written against; a batch is a drizzle transaction, its advisory locks taken first, then the
 * batch's reads (which so see every batch that held one of the locks before), then its statements.
 */
import { sql } from "drizzle-orm"
import type { SQLWrapper } from "drizzle-orm"
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core"
import type { CatalogStore } from "./rows.js"
import * as pgSchema from "./schema-pg.js"
import { RESULT_PART_BYTES } from "./result-parts.js"
import { createCatalogStore } from "./store.js"
import type { CatalogDb, CatalogTables } from "./dialect.js"

export type PgCatalogDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>

export interface PgStoreOptions {
  /**
   * the most UTF-8 bytes of result text one row holds (default 64 KiB, RESULT_PART_BYTES: a download reads a part at a
   * time); Infinity keeps every text in its row, whatever its size
   */
  resultPartBytes?: number
}

/** rows a statement changed: postgres.js answers with `count`, node-postgres with `rowCount` */
const rowsChanged = (result: unknown) => {
  const { count, rowCount } = result as { count?: number; rowCount?: number | null }
  return count ?? rowCount ?? 0
}

export const createPgCatalogStore = (
  pgDb: PgCatalogDb,
  { resultPartBytes = RESULT_PART_BYTES }: PgStoreOptions = {},
): CatalogStore =>
  createCatalogStore({
    db: pgDb as unknown as CatalogDb,
    tables: pgSchema as unknown as CatalogTables,
    // the protocol counts a statement's parameters in 16 bits
    maxParameters: 65_535,
    resultPartBytes,
    writeBatch: (build, { lockKeys = [] } = {}) =>
      pgDb.transaction(async (tx) => {
        for (const key of lockKeys) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
        const changed: number[] = []
        for (const statement of await build(tx as unknown as CatalogDb))
          changed.push(rowsChanged(await (statement as unknown as PromiseLike<unknown>)))
        return changed
      }),
    // StoreDialect.claimIn
    claimIn: (column, select) => {
      const lockable = select as unknown as { for(strength: "update", config: { skipLocked: true }): SQLWrapper }
      return sql`${column} = any(array(${lockable.for("update", { skipLocked: true })}))`
    },
    // StoreDialect.among
    among: (column, select) => sql`${column} = any(array(${select}))`,
    // assigning a transaction id is a write: a standby refuses it
    probeWrite: () =>
      pgDb.transaction(async (tx) => {
        await tx.execute(sql`select pg_current_xact_id()`)
      }),
  })
