/**
 * A listing of executions reads at most its limit of rows, whatever the table holds: SQLite's plan for the query
 * the store sends walks the primary key's index in order, or under a filter on key or status that column's index
 * (key_id, id) or (status, id) from the key on, and sorts nothing itself.
 */
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { expect, it } from "vitest"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { ExecutionListQuery } from "../src/catalog/rows.js"

const planOf = async (query: ExecutionListQuery) => {
  const sqlite = new Database(":memory:")
  const sent: { sql: string; params: unknown[] }[] = []
  const db = drizzle(sqlite, { logger: { logQuery: (sql, params) => void sent.push({ sql, params }) } })
  migrate(db, { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  sent.length = 0
  await createSqliteCatalogStore(db).listExecutions(query)
  try {
    const [listing] = sent
    expect(sent.length).toBe(1)
    return (
      sqlite.prepare(`explain query plan ${listing!.sql}`).all(...(listing!.params as unknown[])) as {
        detail: string
      }[]
    ).map((row) => row.detail)
  } finally {
    sqlite.close()
  }
}

const before = "0190f5c2-0000-7000-8000-000000000000"

it.each<ExecutionListQuery>([{ limit: 20 }, { limit: 20, before }])(
  "%o walks the primary key in order and sorts nothing",
  async (query) => {
    const plan = await planOf(query)
    expect(plan.filter((step) => / executions( |$)/.test(step))).toEqual([
      expect.stringMatching(/^(SCAN|SEARCH) executions USING INDEX sqlite_autoindex_executions_1\b/),
    ])
    expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/)
  },
)

// a filter on the primary key alone walks every row the filter passes over, on the main thread (better-sqlite3 is
// synchronous): a key owning none of 50,000 executions read them all
it.each<[ExecutionListQuery, RegExp]>([
  [{ limit: 20, keyId: "k1" }, /^SEARCH executions USING INDEX executions_key_id_idx \(key_id=\?\)/],
  [{ limit: 20, keyId: "k1", before }, /^SEARCH executions USING INDEX executions_key_id_idx \(key_id=\? AND id<\?\)/],
  [{ limit: 20, status: "error" }, /^SEARCH executions USING INDEX executions_status_idx \(status=\?\)/],
  // under both, the key's: a key listing a common status through the status index walked every key's rows again
  [{ limit: 20, status: "ok", keyId: "k1" }, /^SEARCH executions USING INDEX executions_key_id_idx \(key_id=\?\)/],
  [
    { limit: 20, status: "error", keyId: "k1", before },
    /^SEARCH executions USING INDEX executions_key_id_idx \(key_id=\? AND id<\?\)/,
  ],
])("%o seeks its index in order and sorts nothing", async (query, step) => {
  const plan = await planOf(query)
  expect(plan.filter((step) => / executions( |$)/.test(step))).toEqual([expect.stringMatching(step)])
  expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/)
})
