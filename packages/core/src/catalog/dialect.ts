/**
 * What a database dialect hands the one CatalogStore (./store.ts): its query builders and tables, its limits,
 * and how it runs an atomic batch of statements. One file per dialect implements it (dialect-*.ts).
 */
import type { AnyColumn, SQL, SQLWrapper } from "drizzle-orm"
import type { BatchItem } from "drizzle-orm/batch"
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import type { ExecutionRecord } from "../seams.js"
import type * as schema from "./schema-sqlite.js"

/** The query surface shared by the dialects (typed as SQLite's async builder; Postgres is cast to it). */
export type CatalogDb = Pick<BaseSQLiteDatabase<"async", unknown>, "select" | "insert" | "update" | "delete">
export type CatalogTables = Pick<
  typeof schema,
  | "sources"
  | "tools"
  | "sourceDefinitions"
  | "toolShapes"
  | "executions"
  | "executionResultParts"
  | "toolCalls"
  | "apiKeys"
  | "policies"
  | "approvals"
  | "sourceAuth"
  | "oauthClients"
  | "oauthStates"
>
/** An executions row as written: the record, and its result's length (`result_chars`). */
export type ExecutionRow = ExecutionRecord & { resultChars: number | null }
/** A tool_calls row as written: every column given, the absent ones as null. */
export type ToolCallInsert = Required<typeof schema.toolCalls.$inferInsert>
/** A tool_shapes row. */
export type ShapeRow = typeof schema.toolShapes.$inferSelect

/** One statement of a batch: an insert, update or delete built on the handle `writeBatch` gives `build`. */
export type WriteStatement = BatchItem<"sqlite">

export interface StoreDialect {
  db: CatalogDb
  tables: CatalogTables
  /** the most parameters one statement may bind: multi-row inserts and `in` lists are cut to fit (D1: 100) */
  maxParameters: number
  /**
   * the most UTF-8 bytes of result text one row may hold; a longer text goes in parts (./result-parts.ts).
   * Unset, a text is never cut.
   */
  resultPartBytes?: number
  /**
   * The reads of ./prepared-read.ts are prepared once and reused, not built for each call: true where one connection
   * serves every read and a prepared statement outlives a call (SQLite).
   */
  reusesReads?: boolean
  /**
   * Runs the statements `build` makes, in order and atomically: every one commits or none does, and resolves to
   * the rows each statement changed. `build` gets the handle to read and build on (Postgres: the transaction's; a
   * statement built on `db` would run on another connection), and may read before it returns its statements. A
   * dialect that holds a transaction open (SQLite, Postgres) runs those reads inside it, after `lockKeys` are
   * held, so they see every batch that committed before; D1 has no such transaction and runs them before the
   * batch, where another writer may come between. So what a batch writes must stay right whatever was read
   * (compare-and-set, or statements that do not depend on it). `lockKeys`: a dialect whose batches run side by
   * side (Postgres) first waits until no other batch holds one of them; a dialect that runs one batch at a
   * time needs none.
   */
  writeBatch(
    build: (db: CatalogDb) => WriteStatement[] | Promise<WriteStatement[]>,
    options?: { lockKeys?: string[] },
  ): Promise<number[]>
  /**
   * One executions row, by a statement cheaper than the builder's multi-row insert (on SQLite a statement
   * prepared once and run per row costs a fraction of building and preparing the builder's insert). Used for
   * every row of a batch; a dialect without one gets multi-row inserts.
   */
  insertExecution?(row: ExecutionRow): WriteStatement
  /** One tool_calls row, the same way: a script of many calls writes as many rows with each record. */
  insertToolCall?(row: ToolCallInsert): WriteStatement
  /**
   * A shape merge's compare-and-set update of one tool_shapes row (./shape-merge.ts), the same way: every execute
   * that calls a tool writes one. Unset, the builder's update.
   */
  updateShape?(row: ShapeRow, expected: Pick<ShapeRow, "sampleCount" | "lastSeenAt">): WriteStatement
  /**
   * The condition "`column` is among the ids `select` reads", for a claim: an update that takes the rows a select
   * picks. Unset, `column in (select)`, which SQLite and D1 run as it reads (the update is the only writer while it
   * runs). Postgres makes the select lock what it reads and pass over rows another transaction holds (`for update
   * skip locked`, so two servers claiming at once neither wait on each other nor lock in two orders and deadlock),
   * and runs it once, before the update (`= any(array(…))`): a subquery the plan runs again for each row, locking,
   * passes over the rows this update has written already and takes the next ones, past its LIMIT.
   */
  claimIn?(column: AnyColumn, select: SQLWrapper): SQL
  /**
   * The condition "`column` is among the ids `select` reads", where the select is to run once, before the query
   * around it, and its ids be looked up one by one (a listing's window of candidates: ./execution-listing.ts).
   * Unset, `column in (select)`, which SQLite runs so. Postgres writes it `= any(array(…))`: given `in`, it read
   * the whole table for the other conditions and joined the two.
   */
  among?(column: AnyColumn, select: SQLWrapper): SQL
  /** Commits a write that changes nothing but reaches the database as a real one would (`checkReadiness`). */
  probeWrite(): Promise<void>
  /**
   * Makes one store operation: reads, then at most one batch, so it is safe to make again if nothing was written.
   * SQLite keeps its one connection to one operation at a time, and tries again while another process holds the
   * file. Without it, an operation runs as it is.
   */
  around?<T>(operation: () => Promise<T>): Promise<T>
}
