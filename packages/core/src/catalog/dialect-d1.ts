/**
 * Cloudflare D1 through drizzle (`drizzle(env.DB)` from drizzle-orm/d1). D1 runs no interactive transaction (it
 * refuses BEGIN, and with it drizzle's `db.transaction()`), but runs `db.batch([...])` atomically: a batch is the
 * store's atomic write as it is. Measured in local workerd (miniflare 4.20260426.0): a statement binds at most 100
 * parameters ("too many SQL variables"), its SQL text is at most 100,000 bytes, and a row at most about 2.2 MB,
 * counted in UTF-8 ("string or blob too big"; Cloudflare documents 2,000,000 bytes, which is what this dialect
 * keeps under). PRAGMA user_version is not authorized. The same drizzle/sqlite migrations apply unchanged.
 *
 * The database is typed by its shape, so core needs no Workers types: a drizzle D1 database has it.
 */
import { sql } from "drizzle-orm"
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import type { CatalogDb, WriteStatement } from "./dialect.js"
import type { CatalogStore } from "./rows.js"
import * as schema from "./schema-sqlite.js"
import { createCatalogStore } from "./store.js"

export type D1CatalogDb = BaseSQLiteDatabase<"async", unknown, Record<string, unknown>> & {
  batch(statements: readonly [WriteStatement, ...WriteStatement[]]): Promise<readonly unknown[]>
}

export interface D1StoreOptions {
  /** the most UTF-8 bytes of result text one row holds (default 1,000,000: half a row, the rest for the others) */
  resultPartBytes?: number
}

/** bound parameters per statement: D1's limit */
const D1_MAX_PARAMETERS = 100

const D1_RESULT_PART_BYTES = 1_000_000

export const createD1CatalogStore = (d1Db: D1CatalogDb, { resultPartBytes }: D1StoreOptions = {}): CatalogStore => {
  const db = d1Db as unknown as CatalogDb
  const batch = async (statements: WriteStatement[]) => {
    const [first, ...rest] = statements
    if (!first) return []
    // each statement's D1Result says in `meta.changes` what it changed
    const results = await d1Db.batch([first, ...rest])
    return results.map((result) => (result as { meta?: { changes?: number } }).meta?.changes ?? 0)
  }
  return createCatalogStore({
    db,
    tables: schema,
    maxParameters: D1_MAX_PARAMETERS,
    resultPartBytes: resultPartBytes ?? D1_RESULT_PART_BYTES,
    // the reads `build` makes run before the batch, outside it: the store's statements hold up anyway (see
    // StoreDialect.writeBatch); D1 runs one batch at a time, so `lockKeys` have nothing to add
    writeBatch: async (build) => batch(await build(db)),
    // an update that matches nothing: a write all the same, which a database that cannot be written refuses
    probeWrite: async () => {
      await batch([
        db
          .update(schema.sources)
          .set({ id: sql`${schema.sources.id}` })
          .where(sql`0 = 1`),
      ])
    },
  })
}
