/**
 * SQLite (better-sqlite3 through drizzle). A batch is BEGIN IMMEDIATE, the batch's reads and statements, COMMIT,
 * on the one connection, while a lock keeps every other store operation out until it ends; otherwise a
 * statement from a concurrent request would land inside (and roll back with) it. Holding the file's write lock,
 * the reads see every other connection's last commit.
 *
 * Being synchronous, the driver also waits synchronously: with SQLite's `busy_timeout` a write that finds the file
 * locked by another connection blocks the whole event loop for as long as it waits, up to the timeout per write.
 * The host opens the file with `busy_timeout = 0`, and an operation that meets SQLITE_BUSY is made again here,
 * after a pause that yields to the event loop, for at most `busyWaitMs` in all (see ./busy-retry.ts).
 */
import { getTableColumns, getTableName, sql } from "drizzle-orm"
import type { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core"
import type { CatalogStore } from "./rows.js"
import * as schema from "./schema-sqlite.js"
import { createCatalogStore } from "./store.js"
import type { CatalogDb, StoreDialect, WriteStatement } from "./dialect.js"
import { DEFAULT_BUSY_WAIT_MS, retryWhileBusy } from "./busy-retry.js"
import { DatabaseFault } from "../database-fault.js"
import { RESULT_PART_BYTES } from "./result-parts.js"

export interface SqliteStoreOptions {
  /** how long a store call may wait, in all, for another connection's lock on the file (default 5 s) */
  busyWaitMs?: number
  /**
   * Why the file must not be written, or undefined. SQLite goes on writing to a database file deleted or replaced
   * while it is open, where nobody will find the rows; only the host can compare the file it opened with the one
   * at the path (core has no file system), so it says here when they differ, and every store call then fails.
   */
  fileFault?: () => string | undefined
  /**
   * the most UTF-8 bytes of result text one row holds (default 64 KiB, RESULT_PART_BYTES: a download reads a part at a
   * time); Infinity keeps every text in its row, whatever its size
   */
  resultPartBytes?: number
}

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
  prepare(text: string): { run(...parameters: unknown[]): { changes: number } }
  inTransaction: boolean
}

/** A statement of a batch as this synchronous driver runs it: a drizzle builder, or the prepared insert below. */
interface SyncStatement {
  run(): { changes: number }
}

/**
 * A statement without parameters, prepared once when the driver allows it: drizzle prepares a statement anew on
 * every call, which for BEGIN and COMMIT costs more than running them.
 */
const fixedStatement = (sqliteDb: SqliteCatalogDb, text: string): (() => unknown) => {
  const client = (sqliteDb as { $client?: Partial<PreparingClient> }).$client
  if (typeof client?.prepare !== "function") return () => sqliteDb.run(sql.raw(text))
  const statement = client.prepare(text)
  return () => statement.run()
}

/**
 * An insert of one row of `table`, prepared once: on better-sqlite3 the driver's own statement, given each column's
 * value as drizzle writes it (`mapToDriverValue`: a boolean as 0 or 1, JSON as text), which costs a fraction of
 * drizzle's prepared query with placeholders; on another driver, that prepared query. Executions and their tool
 * calls are written this way: every execute writes one row of each, and one a call.
 */
const rowInsert = (sqliteDb: SqliteCatalogDb, table: SQLiteTable): ((row: object) => { changes: number }) => {
  const columns = Object.entries(getTableColumns(table))
  const client = (sqliteDb as { $client?: Partial<PreparingClient> }).$client
  if (typeof client?.prepare !== "function") {
    const placeholders = Object.fromEntries(columns.map(([key]) => [key, sql.placeholder(key)]))
    const prepared = sqliteDb.insert(table).values(placeholders).prepare()
    return (row) => prepared.run(row as Record<string, unknown>) as { changes: number }
  }
  const names = columns.map(([, column]) => `"${column.name}"`).join(", ")
  const statement = client.prepare(
    `insert into "${getTableName(table)}" (${names}) values (${columns.map(() => "?").join(", ")})`,
  )
  return (row) => {
    const values = row as Record<string, unknown>
    const parameters = columns.map(([key, column]) => {
      const value = values[key]
      return value === null || value === undefined ? null : column.mapToDriverValue(value)
    })
    return statement.run(...parameters)
  }
}

/**
 * The shape merge's compare-and-set update of one row, prepared once as `rowInsert` is: the values are the row's new
 * shape and counts, then its key, then the counts it was read with.
 */
const shapeUpdate = (sqliteDb: SqliteCatalogDb): StoreDialect["updateShape"] => {
  const client = (sqliteDb as { $client?: Partial<PreparingClient> }).$client
  if (typeof client?.prepare !== "function") return undefined
  const { shape, sampleCount, firstSeenAt, lastSeenAt, toolId, encoding } = schema.toolShapes
  const statement = client.prepare(
    `update "${getTableName(schema.toolShapes)}" set "${shape.name}" = ?, "${sampleCount.name}" = ?, ` +
      `"${firstSeenAt.name}" = ?, "${lastSeenAt.name}" = ? where "${toolId.name}" = ? and "${encoding.name}" = ? ` +
      `and "${sampleCount.name}" = ? and "${lastSeenAt.name}" = ?`,
  )
  return (row, expected) =>
    ({
      run: () =>
        statement.run(
          shape.mapToDriverValue(row.shape),
          row.sampleCount,
          row.firstSeenAt,
          row.lastSeenAt,
          row.toolId,
          row.encoding,
          expected.sampleCount,
          expected.lastSeenAt,
        ),
    }) satisfies SyncStatement as unknown as WriteStatement
}

export const createSqliteCatalogStore = (
  sqliteDb: SqliteCatalogDb,
  { busyWaitMs = DEFAULT_BUSY_WAIT_MS, fileFault, resultPartBytes = RESULT_PART_BYTES }: SqliteStoreOptions = {},
): CatalogStore => {
  // an async driver (D1) would take BEGIN, COMMIT and every statement as promises nobody awaits: nothing atomic
  if ((sqliteDb as unknown as { resultKind?: unknown }).resultKind !== "sync")
    throw new Error(
      "the SQLite catalog store needs a synchronous driver (better-sqlite3); for D1 use createD1CatalogStore",
    )
  const db = sqliteDb as unknown as CatalogDb
  const client = (sqliteDb as { $client?: Partial<PreparingClient> }).$client
  const exclusive = createLock()
  const begin = fixedStatement(sqliteDb, "begin immediate")
  const commit = fixedStatement(sqliteDb, "commit")
  const rollback = fixedStatement(sqliteDb, "rollback")
  /**
   * After a failed statement or COMMIT, SQLite may have rolled the transaction back itself (an I/O error does),
   * and a ROLLBACK then fails with "cannot rollback - no transaction is active", which would hide the error that
   * mattered. Roll back only what is still open, and never let the rollback's own failure hide the first.
   */
  const rollbackAfter = (cause: unknown): never => {
    if (client?.inTransaction !== false) {
      try {
        rollback()
      } catch {
        // the first error is the one to report; this one follows from it
      }
    }
    throw cause
  }
  // the store's lock (`around`) keeps every other operation off the connection while this transaction is open
  const atomically = async <T>(work: () => T | Promise<T>): Promise<T> => {
    begin()
    try {
      const pending = work()
      const result = pending instanceof Promise ? await pending : pending
      commit()
      return result
    } catch (cause) {
      return rollbackAfter(cause)
    }
  }
  const insertExecution = rowInsert(sqliteDb, schema.executions)
  const insertToolCall = rowInsert(sqliteDb, schema.toolCalls)
  const checkFile = () => {
    const fault = fileFault?.()
    if (fault !== undefined) throw new DatabaseFault({ message: fault })
  }
  return createCatalogStore({
    db,
    tables: schema,
    // SQLITE_MAX_VARIABLE_NUMBER's default since SQLite 3.32
    maxParameters: 32_766,
    resultPartBytes,
    reusesReads: true,
    writeBatch: (build) =>
      atomically(() => {
        // a batch built without reads runs in one synchronous step, BEGIN to COMMIT
        const built = build(db)
        const run = (statements: WriteStatement[]) =>
          statements.map((statement) => (statement as unknown as SyncStatement).run().changes)
        return Array.isArray(built) ? run(built) : built.then(run)
      }),
    insertExecution: (row) =>
      ({ run: () => insertExecution(row) }) satisfies SyncStatement as unknown as WriteStatement,
    insertToolCall: (row) => ({ run: () => insertToolCall(row) }) satisfies SyncStatement as unknown as WriteStatement,
    updateShape: shapeUpdate(sqliteDb),
    // a committed write that changes nothing: page 1 is rewritten, so it reaches the WAL as every record does (a
    // write rolled back before COMMIT never touches the file, and would not notice a file that cannot be written)
    probeWrite: async () =>
      atomically(() => {
        const [[version] = [0]] = sqliteDb.values<[number]>(sql.raw("pragma user_version"))
        sqliteDb.run(sql.raw(`pragma user_version = ${Number(version)}`))
      }),
    // one operation at a time on the connection; one that finds the file locked by another connection gives the
    // lock back while it waits to try again
    around: (operation) =>
      retryWhileBusy(
        () =>
          exclusive(async () => {
            checkFile()
            return operation()
          }),
        busyWaitMs,
      ),
  })
}
