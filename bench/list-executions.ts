/**
 * `GET /v1/executions` paging through a catalog of EXECUTIONS executions, on SQLite opened as the host opens it
 * (`openSqlite`) and on Postgres (a database made for the run, analyzed once filled, dropped after): the store's
 * listing, which the route sends, PAGE a page as the console asks, under each filter alone and some together. For
 * each: the first page (median and max of ROUNDS), then paging on as each page's `nextBefore` says (median and max
 * of up to PAGES pages: fewer where the filter's rows run out; under several filters a page may list fewer than
 * PAGE, as its window of candidates ends), and how many executions those pages listed. Then, on SQLite, the error
 * code's and the source's queries again without migration 0011's indexes (`executions (error_code, id)`,
 * `tool_calls (namespace, execution_id)`), and what the migration costs at boot on this table.
 *
 * The catalog: each execution RESULT_BYTES of result and two tool calls; key `agent` made 90%, `ops` 10%, `reader`
 * none; 92% ok, 6% failed `runtime_error`, 2% `timeout`, 10 executions `rare_code` and 10 paused; the calls go to
 * `github` or `slack` (half each), 50 executions' to `rare`, none to `dormant`.
 * `pnpm tsx bench/list-executions.ts [executions] [result bytes]` (default 100,000 × 1,024; about 4 minutes).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Catalog from "@switchboard/core/catalog"
import { timeOrderedId } from "@switchboard/core"
import type { CatalogStore, ExecutionEntry, ExecutionRecord, ToolCallRecord } from "@switchboard/core"
import postgres from "postgres"
import { createTestDatabase } from "@switchboard/fixtures"
import { openCatalogDatabase, openSqlite } from "@switchboard/server"

const EXECUTIONS = Number(process.argv[2] ?? 100_000)
const RESULT_BYTES = Number(process.argv[3] ?? 1_024)
const PAGE = 25
const ROUNDS = 9
const PAGES = 20

const result = "y".repeat(RESULT_BYTES)
const RARE_EVERY = Math.floor(EXECUTIONS / 10)

/** the i-th execution of the seeded catalog, oldest first */
const entry = (i: number, startedAt: number): ExecutionEntry => {
  const id = timeOrderedId()
  const rare = i % RARE_EVERY === 7
  const paused = i % RARE_EVERY === 3
  const failed = rare ? "rare_code" : i % 50 === 1 ? "timeout" : i % 100 < 8 && i % 100 > 1 ? "runtime_error" : null
  const namespace = i % Math.floor(EXECUTIONS / 50) === 5 ? "rare" : i % 2 === 0 ? "github" : "slack"
  const execution: ExecutionRecord = {
    id,
    code: `const r = await tools.${namespace}.search({ q: 'x' }); return r.data`,
    status: paused ? "paused" : failed ? "error" : "ok",
    startedAt,
    durationMs: 12,
    resultText: failed || paused ? null : result,
    errorCode: paused ? null : failed,
    errorMessage: failed ? "it failed" : null,
    logs: [],
    toolCallCount: 2,
    keyId: i % 10 === 9 ? "ops" : "agent",
    keepUntil: null,
  }
  const call = (n: number): ToolCallRecord => ({
    executionId: id,
    toolPath: `${namespace}.search`,
    encoding: "direct",
    startedAt: startedAt + n,
    durationMs: 3,
    ok: true,
    errorCode: null,
    dataBytes: 10,
    outputSchemaError: null,
  })
  return { execution, calls: [call(0), call(1)] }
}

const seed = async (store: CatalogStore) => {
  const perBatch = 256
  const start = Date.now() - 86_400_000
  for (let i = 0; i < EXECUTIONS; i += perBatch)
    await store.recordBatch(
      Array.from({ length: Math.min(perBatch, EXECUTIONS - i) }, (_, j) => entry(i + j, start + i + j)),
    )
}

type Filters = Omit<Catalog.ExecutionListQuery, "limit" | "before">

const QUERIES: [string, Filters][] = [
  ["no filter", {}],
  ["status error (8%)", { status: "error" }],
  ["status paused (10 rows)", { status: "paused" }],
  ["error code timeout (2%)", { errorCode: "timeout" }],
  ["error code rare_code (10 rows)", { errorCode: "rare_code" }],
  ["key ops (10%)", { keyId: "ops" }],
  ["key reader (none)", { keyId: "reader" }],
  ["key agent + status paused", { keyId: "agent", status: "paused" }],
  ["key ops + error code timeout (none)", { keyId: "ops", errorCode: "timeout" }],
  ["source github (50%)", { namespace: "github" }],
  ["source rare (50 rows)", { namespace: "rare" }],
  ["source dormant (none)", { namespace: "dormant" }],
  ["source github + status error", { namespace: "github", status: "error" }],
  ["source github + error code rare_code (5 rows)", { namespace: "github", errorCode: "rare_code" }],
]

const stats = (ms: number[]) => {
  if (ms.length === 0) return "-"
  const sorted = [...ms].sort((a, b) => a - b)
  return `${sorted[sorted.length >> 1]!.toFixed(2)} / ${sorted.at(-1)!.toFixed(2)}`
}

const timed = async (store: CatalogStore, query: Catalog.ExecutionListQuery) => {
  const t0 = performance.now()
  const page = await store.listExecutions(query)
  return { ms: performance.now() - t0, page }
}

/** the first page ROUNDS times, then PAGES pages on, each from the last one's last id */
const measure = async (store: CatalogStore, queries = QUERIES) => {
  console.log(`| filter | first page, median / max ms | next pages, median / max ms | next pages read | rows listed |`)
  console.log("| --- | --- | --- | --- | --- |")
  for (const [name, filters] of queries) {
    const first: number[] = []
    for (let round = 0; round < ROUNDS; round++) first.push((await timed(store, { limit: PAGE, ...filters })).ms)
    const next: number[] = []
    let { page } = await timed(store, { limit: PAGE, ...filters })
    let listed = page.executions.length
    for (let n = 0; n < PAGES && page.nextBefore !== undefined; n++) {
      const found = await timed(store, { limit: PAGE, before: page.nextBefore, ...filters })
      next.push(found.ms)
      page = found.page
      listed += page.executions.length
    }
    console.log(`| ${name} | ${stats(first)} | ${stats(next)} | ${next.length} | ${listed} |`)
  }
}

console.log(`${EXECUTIONS} executions × ${RESULT_BYTES} B of result and 2 calls each, ${PAGE} a page`)

const dir = mkdtempSync(join(tmpdir(), "list-bench-"))
const file = join(dir, "catalog.db")
const pg = await createTestDatabase("switchboard_list_bench")
try {
  for (const [dialect, db] of [
    ["SQLite", file],
    ["Postgres", pg.url],
  ] as const) {
    const catalog = await openCatalogDatabase(db)
    const t0 = performance.now()
    await seed(catalog.store)
    // the statistics autovacuum keeps for a table that grew: a table just filled has none, and then the planner read
    // all of a key's rows by a bitmap and sorted them (`sqlite_stat1` plays no part: the store names its indexes)
    if (dialect === "Postgres") {
      const client = postgres(db, { onnotice: () => {} })
      await client`analyze`
      await client.end()
    }
    console.log(`\n${dialect} (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)\n`)
    await measure(catalog.store)
    await catalog.close()
  }

  // SQLite without 0011's indexes: the queries they serve
  const opened = openSqlite(file)
  opened.sqlite.exec("drop index executions_error_code_idx; drop index tool_calls_namespace_idx")
  console.log("\nSQLite without executions_error_code_idx and tool_calls_namespace_idx\n")
  const store = Catalog.createSqliteCatalogStore(opened.db)
  await measure(
    store,
    QUERIES.filter(([, filters]) => filters.errorCode !== undefined || filters.namespace !== undefined),
  )
  // what 0011 costs at boot on this table: its backfill of the calls' namespace, and its two indexes
  opened.sqlite.exec("update tool_calls set namespace = null")
  const migration = readFileSync(new URL("../drizzle/sqlite/0011_execution_list_filters.sql", import.meta.url), "utf8")
  const t0 = performance.now()
  for (const statement of migration.split("--> statement-breakpoint").slice(1)) opened.sqlite.exec(statement)
  console.log(`\nmigration 0011 on this table (backfill and indexes): ${(performance.now() - t0).toFixed(0)} ms`)
  opened.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
  await pg.drop()
}
