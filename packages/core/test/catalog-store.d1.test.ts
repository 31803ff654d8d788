/**
 * The store contract on D1, in real workerd (Miniflare from Node). One database for the run; each test starts
 * from empty tables.
 */
import { drizzle } from "drizzle-orm/d1"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { createD1CatalogStore } from "../src/catalog/dialect-d1.js"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { SqliteCatalogDb } from "../src/catalog/dialect-sqlite.js"
import { catalogStoreContract } from "./catalog-store.contract.js"
import { startD1 } from "./d1-database.js"
import { run } from "./catalog-store.shared.js"

// every statement crosses from Node to workerd: a case of thousands of rows takes seconds on a loaded machine
vi.setConfig({ testTimeout: 30_000 })

let database: Awaited<ReturnType<typeof startD1>>
beforeAll(async () => {
  database = await startD1()
}, 60_000)
afterAll(() => database?.dispose())

const tables = [
  "approvals",
  "policies",
  "tool_calls",
  "execution_result_parts",
  "executions",
  "tool_shapes",
  "tools",
  "sources",
  "api_keys",
]

const storeOn = () => createD1CatalogStore(drizzle(database.d1))

catalogStoreContract("D1 (workerd)", async () => {
  await database.d1.batch(tables.map((table) => database.d1.prepare(`delete from ${table}`)))
  return {
    store: storeOn(),
    second: storeOn,
    exec: async (statement: string) => void (await database.d1.prepare(statement).run()),
    close: async () => {},
  }
})

it("D1 refuses a row past its size limit and a statement past 100 parameters, which is why the store cuts both", async () => {
  const { d1 } = database
  await expect(
    d1
      .prepare(
        "insert into executions (id, code, status, started_at, duration_ms, result_text, tool_call_count) values ('x', '', 'ok', 0, 0, ?, 0)",
      )
      .bind("😀".repeat(600_000))
      .run(),
  ).rejects.toThrow(/SQLITE_TOOBIG/)
  await expect(
    d1
      .prepare(`select ${Array(101).fill("?").join(", ")}`)
      .bind(...Array(101).fill(1))
      .all(),
  ).rejects.toThrow(/too many SQL variables/)
})

it("the SQLite dialect refuses D1 rather than write on it without a transaction", () => {
  // it assumes a synchronous driver: on D1 its BEGIN (refused) and its statements were promises nobody awaited,
  // so a failed batch resolved, half written (measured before this dialect existed: recordBatch([fresh, taken])
  // with "taken" already stored resolved, and "fresh" was stored)
  expect(() => createSqliteCatalogStore(drizzle(database.d1) as unknown as SqliteCatalogDb)).toThrow(
    /synchronous driver.*createD1CatalogStore/,
  )
})

it("a result that fits a part but not the row beside large code and logs is stored in parts", async () => {
  // each alone is under D1's ~2.2 MB row; together (1.3 MB of code, 0.95 MB of result) they are not
  const store = storeOn()
  const execution = {
    ...run("row-full"),
    code: `// ${"c".repeat(1_300_000)}`,
    logs: [{ level: "log" as const, message: "l".repeat(100_000) }],
    resultText: "r".repeat(950_000),
  }
  await store.recordBatch([{ execution, calls: [] }])
  const stored = await store.getExecution("row-full")
  expect(stored?.resultText).toBe(execution.resultText)
  expect(stored?.code).toBe(execution.code)
})
