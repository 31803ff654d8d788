/**
 * `GET /v1/executions` for a key that owns few executions, on SQLite opened as the host opens it (`openSqlite`):
 * the store's keyed listing (what `listExecutionsAs` sends for a key without admin), page size 20, against a table
 * of EXECUTIONS executions of RESULT_BYTES of result each, all made by another key. Prints the median and max of
 * the listing for a key owning none, for status "error" (none either), and for the key with status "ok", with the indexes on (key_id, id) and
 * (status, id) as migrated, then again after dropping them (what the table was before migration 0008). A tree
 * without them prints one line each; a tree with them then times migration 0008 (creating them) on the table.
 * `pnpm tsx bench/list-executions.ts [executions] [result bytes]` (default 50,000 × 4,096; about 30 s).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Catalog from "@switchboard/core/catalog"
import { timeOrderedId } from "@switchboard/core"
import type { ExecutionEntry } from "@switchboard/core"
import { openSqlite } from "@switchboard/server"

const EXECUTIONS = Number(process.argv[2] ?? 50_000)
const RESULT_BYTES = Number(process.argv[3] ?? 4_096)
const ROUNDS = 30
const dir = mkdtempSync(join(tmpdir(), "list-bench-"))
const opened = openSqlite(join(dir, "catalog.db"))
const store = Catalog.createSqliteCatalogStore(opened.db)

const result = "y".repeat(RESULT_BYTES)
const entry = (startedAt: number): ExecutionEntry => ({
  execution: {
    id: timeOrderedId(),
    code: "const r = await tools.svc.search({ q: 'x' }); return r.data",
    status: "ok",
    startedAt,
    durationMs: 12,
    resultText: result,
    errorCode: null,
    errorMessage: null,
    logs: [],
    toolCallCount: 0,
    keyId: "owner",
    keepUntil: null,
  },
  calls: [],
})
// a batch of at most ~4 MiB of text, as the executor's group commit would write them
const perBatch = Math.max(1, Math.min(256, Math.floor(4_194_304 / RESULT_BYTES)))
const seeded = Date.now() - 86_400_000
for (let i = 0; i < EXECUTIONS; i += perBatch)
  await store.recordBatch(Array.from({ length: Math.min(perBatch, EXECUTIONS - i) }, (_, j) => entry(seeded + i + j)))

const time = async (query: Catalog.ExecutionListQuery) => {
  const ms: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now()
    const found = await store.listExecutions(query)
    ms.push(performance.now() - t0)
    if (found.length !== 0) throw new Error("the listing should find none")
  }
  ms.sort((a, b) => a - b)
  return `median ${ms[ROUNDS >> 1]!.toFixed(2)} ms, max ${ms.at(-1)!.toFixed(2)} ms`
}
const sqlite = opened.sqlite
const migration = new URL("../drizzle/sqlite/0008_execution_list_indexes.sql", import.meta.url)
const indexes = () =>
  (
    sqlite.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'executions'").all() as {
      name: string
    }[]
  ).map((row) => row.name)
const measure = async () => {
  console.log(`indexes on executions: ${indexes().join(", ")}`)
  console.log(`  key owning none, limit 20: ${await time({ limit: 20, keyId: "reader" })}`)
  console.log(`  status "error" (none), limit 20: ${await time({ limit: 20, status: "error" })}`)
  // a read key asking for ?status=ok: the key and the status together
  console.log(`  key owning none, status "ok", limit 20: ${await time({ limit: 20, keyId: "reader", status: "ok" })}`)
}

console.log(`${EXECUTIONS} executions × ${RESULT_BYTES} B of result, ${ROUNDS} listings each`)
await measure()
const added = ["executions_key_id_idx", "executions_status_idx"].filter((name) => indexes().includes(name))
if (added.length > 0) {
  for (const name of added) sqlite.exec(`drop index ${name}`)
  await measure()
  // what migration 0008 costs at boot on a table this size: one read of every row
  const t0 = performance.now()
  for (const statement of readFileSync(migration, "utf8").split("--> statement-breakpoint")) sqlite.exec(statement)
  console.log(`migration 0008 on this table: ${(performance.now() - t0).toFixed(0)} ms`)
}
opened.close()
rmSync(dir, { recursive: true, force: true })
