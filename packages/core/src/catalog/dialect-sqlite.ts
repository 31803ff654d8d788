/**
 * SQLite (better-sqlite3 through drizzle). The driver is synchronous and has one connection, so a transaction
 * is BEGIN IMMEDIATE … COMMIT on that connection while a lock keeps every other store call out until it
 * ends; otherwise a statement from a concurrent request would land inside (and roll back with) it.
 */
import { getTableColumns, sql } from "drizzle-orm"
import type { Placeholder } from "drizzle-orm"
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

/** What the drivers drizzle wraps here expose as `$client` (better-sqlite3): statements prepared once. */
interface PreparingClient {
  prepare(text: string): { run(): unknown }
}

/**
 * A statement without parameters, prepared once when the driver allows it: drizzle prepares a statement anew on
 * every call, which for BEGIN and COMMIT cost more than running them (about 5 µs each here).
 */
const fixedStatement = (sqliteDb: SqliteCatalogDb, text: string): (() => unknown) => {
  const client = (sqliteDb as { $client?: Partial<PreparingClient> }).$client
  if (typeof client?.prepare !== "function") return () => sqliteDb.run(sql.raw(text))
  const statement = client.prepare(text)
  return () => statement.run()
}

export const createSqliteCatalogStore = (sqliteDb: SqliteCatalogDb): CatalogStore => {
  const db = sqliteDb as unknown as CatalogDb
  const exclusive = createLock()
  const begin = fixedStatement(sqliteDb, "begin immediate")
  const commit = fixedStatement(sqliteDb, "commit")
  const rollback = fixedStatement(sqliteDb, "rollback")
  // one placeholder per column of the schema's executions table; drizzle maps each value as the builder does
  const executionPlaceholders = Object.fromEntries(Object.keys(getTableColumns(schema.executions)).map((key) => [key, sql.placeholder(key)])) as {
    [column in keyof Required<typeof schema.executions.$inferInsert>]: Placeholder
  }
  const insertExecution = sqliteDb.insert(schema.executions).values(executionPlaceholders).prepare()
  const store = createCatalogStore({
    db,
    tables: schema,
    // the record's keys are the placeholders' names: it is the statement's parameters as it is
    insertExecution: (row) => insertExecution.run(row as unknown as Record<string, unknown>),
    transaction: async (work) => {
      begin()
      try {
        const result = await work(db)
        commit()
        return result
      } catch (cause) {
        rollback()
        throw cause
      }
    },
  })
  // every call takes the lock, so nothing interleaves with an open transaction
  return Object.fromEntries(
    Object.entries(store).map(([name, method]) => [name, (...args: unknown[]) => exclusive(() => (method as (...a: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as CatalogStore
}
