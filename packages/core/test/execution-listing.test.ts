/**
 * A listing of executions reads at most its limit of rows, whatever the table holds: SQLite's plan for the query
 * the store sends walks the primary key's index in order, or under a filter on error code, key or status that
 * column's index (error_code, id), (key_id, id) or (status, id) from the key on, or under a source the calls'
 * index (namespace, execution_id), and sorts nothing itself.
 */
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { expect, it } from "vitest"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { ExecutionListQuery } from "../src/catalog/rows.js"

/** the plan of each statement the listing sends: the page's, and for a page cut short where its window ended */
const plansOf = async (query: ExecutionListQuery) => {
  const sqlite = new Database(":memory:")
  const sent: { sql: string; params: unknown[] }[] = []
  const db = drizzle(sqlite, { logger: { logQuery: (sql, params) => void sent.push({ sql, params }) } })
  migrate(db, { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  sent.length = 0
  await createSqliteCatalogStore(db).listExecutions(query)
  try {
    return sent.map((statement) =>
      (
        sqlite.prepare(`explain query plan ${statement.sql}`).all(...(statement.params as unknown[])) as {
          detail: string
        }[]
      ).map((row) => row.detail),
    )
  } finally {
    sqlite.close()
  }
}

const planOf = async (query: ExecutionListQuery) => {
  const plans = await plansOf(query)
  expect(plans.length).toBe(1)
  return plans[0]!
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
  [{ limit: 20, errorCode: "timeout" }, /^SEARCH executions USING INDEX executions_error_code_idx \(error_code=\?\)/],
])("%o seeks its index in order and sorts nothing", async (query, step) => {
  const plan = await planOf(query)
  expect(plan.filter((step) => / executions( |$)/.test(step))).toEqual([expect.stringMatching(step)])
  expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/)
})

// under several filters, the lead's index gives the candidates (a window of them, read from the index alone), each
// looked up by its id and checked against the others; then, for a page cut short, where the window ended
it.each<[ExecutionListQuery, RegExp]>([
  // the key's: a key listing a common status through the status index walked every key's rows again
  [
    { limit: 20, status: "ok", keyId: "k1" },
    /^SEARCH executions USING COVERING INDEX executions_key_id_idx \(key_id=\?\)/,
  ],
  // an error code leads whatever else is asked: only failed executions are in its index
  [
    { limit: 20, errorCode: "timeout", keyId: "k1", status: "error", before },
    /^SEARCH executions USING COVERING INDEX executions_error_code_idx \(error_code=\? AND id<\?\)/,
  ],
  [
    { limit: 20, namespace: "gh", status: "ok", before },
    /^SEARCH tool_calls USING COVERING INDEX tool_calls_namespace_idx \(namespace=\? AND execution_id<\?\)/,
  ],
])("%o reads a window of its lead's index, then those executions by id, and sorts nothing", async (query, lead) => {
  const [page, edge] = await plansOf(query)
  expect(page!.filter((step) => / (executions|tool_calls)( |$)/.test(step))).toEqual([
    "SEARCH executions USING INDEX sqlite_autoindex_executions_1 (id=?)",
    expect.stringMatching(lead),
  ])
  expect(edge).toEqual([expect.stringMatching(lead)])
  expect([...page!, ...edge!].join("\n")).not.toMatch(/TEMP B-TREE/)
})

it("under a source and a key, checks each of the key's executions for a call by the calls' index", async () => {
  const [page] = await plansOf({ limit: 20, namespace: "gh", keyId: "k1" })
  expect(page!.filter((step) => / (executions|tool_calls)( |$)/.test(step))).toEqual([
    "SEARCH executions USING INDEX sqlite_autoindex_executions_1 (id=?)",
    expect.stringMatching(/^SEARCH executions USING COVERING INDEX executions_key_id_idx \(key_id=\?\)/),
    expect.stringMatching(
      /^SEARCH tool_calls EXISTS USING COVERING INDEX tool_calls_namespace_idx \(namespace=\? AND execution_id=\?\)/,
    ),
  ])
})

it("under a source alone, reads the calls' index newest first, then those executions by id", async () => {
  const [page, ...more] = await plansOf({ limit: 20, namespace: "gh", before })
  expect(more).toEqual([])
  expect(page!.filter((step) => / (executions|tool_calls)( |$)/.test(step))).toEqual([
    "SEARCH executions USING INDEX sqlite_autoindex_executions_1 (id=?)",
    expect.stringMatching(
      /^SEARCH tool_calls USING COVERING INDEX tool_calls_namespace_idx \(namespace=\? AND execution_id<\?\)/,
    ),
  ])
  expect(page!.join("\n")).not.toMatch(/TEMP B-TREE/)
})
