/**
 * SQLite (better-sqlite3 through drizzle). The driver is synchronous and has one connection, so a transaction
 * is BEGIN IMMEDIATE … COMMIT on that connection while a lock keeps every other store call out until it
 * ends; otherwise a statement from a concurrent request would land inside (and roll back with) it.
 */
import { sql } from "drizzle-orm"
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import type { CatalogStore } from "./rows.js"
import * as schema from "./schema-sqlite.js"
import { createCatalogStore } from "./store.js"
import type { CatalogDb } from "./store.js"

export type SqliteCatalogDb = BaseSQLiteDatabase<"sync", unknown, Record<string, unknown>>

/** A FIFO lock: `run` waits for every earlier holder. */
const createLock = () => {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work)
    tail = result.catch(() => undefined)
    return result
  }
}

export const createSqliteCatalogStore = (sqliteDb: SqliteCatalogDb): CatalogStore => {
  const db = sqliteDb as unknown as CatalogDb
  const exclusive = createLock()
  const store = createCatalogStore({
    db,
    tables: schema,
    transaction: async (work) => {
      sqliteDb.run(sql`begin immediate`)
      try {
        const result = await work(db)
        sqliteDb.run(sql`commit`)
        return result
      } catch (cause) {
        sqliteDb.run(sql`rollback`)
        throw cause
      }
    },
  })
  // every call takes the lock, so nothing interleaves with an open transaction
  return Object.fromEntries(
    Object.entries(store).map(([name, method]) => [name, (...args: unknown[]) => exclusive(() => (method as (...a: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as CatalogStore
}
