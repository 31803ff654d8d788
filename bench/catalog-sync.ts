/**
 * Catalog sync of a 1,000-tool MCP server on SQLite and on Postgres: time per tool, and the ratio to a bare
 * insert of the same rows with the same driver in one transaction. Run: `pnpm bench:sync`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import type { DiscoveredTool, SourceHandle } from "@switchboard/core"
import { createTestDatabase, fixtureCommand } from "@switchboard/fixtures"
import { createMcpPlugin } from "@switchboard/plugin-mcp/node"
import { openCatalogDatabase } from "@switchboard/server"
import postgres from "postgres"
import Database from "better-sqlite3"

const TOOLS = 1000
const RUNS = 5
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const plugin = await createMcpPlugin({ allowStdio: true })
const handle: SourceHandle = {
  id: "bench",
  namespace: "many",
  kind: "mcp",
  config: { transport: { type: "stdio", ...fixtureCommand("many-tools"), env: { TOOL_COUNT: String(TOOLS) } } },
}

const discoverTimes: number[] = []
let tools: DiscoveredTool[] = []
for (let i = 0; i < RUNS + 1; i++) {
  const t0 = performance.now()
  const discovered = await plugin.discover(handle)
  if (!discovered.ok) throw new Error(discovered.message)
  if (i > 0) discoverTimes.push(performance.now() - t0) // the first includes spawning the server
  tools = discovered.discovery.tools
}
await plugin.close()
if (tools.length !== TOOLS) throw new Error(`expected ${TOOLS} tools, got ${tools.length}`)

const rowsOf = (sourceId: string) =>
  tools.map((t, i) => ({
    id: `bare-${i}`,
    source_id: sourceId,
    name: t.name,
    path: `bare.${t.name}`,
    description: t.description,
    input_schema: JSON.stringify(t.inputSchema),
    output_schema: t.outputSchema ? JSON.stringify(t.outputSchema) : null,
    result_encoding: "mcp-call-tool-result-v2",
    synced_at: 1,
  }))

const source = (id: string, namespace: string) => ({
  id,
  namespace,
  kind: "mcp",
  config: {},
  status: "ready" as const,
  lastSyncedAt: null,
  syncError: null,
  createdAt: 1,
  updatedAt: 1,
})

const measureStore = async (db: string) => {
  const catalog = await openCatalogDatabase(db)
  const first: number[] = []
  const resync: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const id = `s${run}`
    await catalog.store.insertSource(source(id, `ns${run}`))
    let t0 = performance.now()
    await catalog.store.applySync({ sourceId: id, tools, encoding: "mcp-call-tool-result-v2", syncedAt: 1 })
    first.push(performance.now() - t0)
    t0 = performance.now()
    await catalog.store.applySync({ sourceId: id, tools, encoding: "mcp-call-tool-result-v2", syncedAt: 2 })
    resync.push(performance.now() - t0)
  }
  await catalog.close()
  return { first: median(first), resync: median(resync) }
}

const bareSqlite = (file: string) => {
  const sqlite = new Database(file)
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    sqlite
      .prepare(
        "insert into sources (id, namespace, kind, config, status, created_at, updated_at) values (?, ?, 'mcp', '{}', 'ready', 1, 1)",
      )
      .run(`bare${run}`, `bare${run}`)
    const insert = sqlite.prepare(
      "insert into tools (id, source_id, name, path, description, input_schema, output_schema, result_encoding, synced_at) values (@id, @source_id, @name, @path, @description, @input_schema, @output_schema, @result_encoding, @synced_at)",
    )
    const rows = rowsOf(`bare${run}`).map((r) => ({ ...r, id: `${r.id}-${run}`, path: `bare${run}.${r.name}` }))
    const t0 = performance.now()
    sqlite.transaction(() => rows.forEach((r) => insert.run(r)))()
    times.push(performance.now() - t0)
  }
  sqlite.close()
  return median(times)
}

const barePostgres = async (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await sql`insert into sources (id, namespace, kind, config, status, created_at, updated_at) values (${`bare${run}`}, ${`bare${run}`}, 'mcp', '{}', 'ready', 1, 1)`
    const rows = rowsOf(`bare${run}`).map((r) => ({ ...r, id: `${r.id}-${run}`, path: `bare${run}.${r.name}` }))
    const t0 = performance.now()
    await sql.begin(async (tx) => {
      for (const r of rows)
        await tx`insert into tools (id, source_id, name, path, description, input_schema, output_schema, result_encoding, synced_at) values (${r.id}, ${r.source_id}, ${r.name}, ${r.path}, ${r.description}, ${r.input_schema}::jsonb, ${r.output_schema}::jsonb, ${r.result_encoding}, ${r.synced_at})`
    })
    times.push(performance.now() - t0)
  }
  await sql.end()
  return median(times)
}

const dir = mkdtempSync(join(tmpdir(), "bench-sync-"))
const sqliteFile = join(dir, "catalog.db")
const pg = await createTestDatabase("switchboard_bench")
try {
  const sqliteStore = await measureStore(sqliteFile)
  const sqliteBare = bareSqlite(sqliteFile)
  const pgStore = await measureStore(pg.url)
  const pgBare = await barePostgres(pg.url)
  const perTool = (ms: number) => `${((ms * 1000) / TOOLS).toFixed(1)} µs/tool`
  console.log(`catalog sync of a ${TOOLS}-tool MCP server (stdio), median of ${RUNS}`)
  console.log(
    `  tools/list, all pages (${TOOLS / 100} pages), warm connection: ${median(discoverTimes).toFixed(1)} ms (${perTool(median(discoverTimes))})`,
  )
  for (const [name, store, bare] of [
    ["sqlite", sqliteStore, sqliteBare],
    ["postgres", pgStore, pgBare],
  ] as const) {
    console.log(
      `  ${name}: first sync write ${store.first.toFixed(1)} ms (${perTool(store.first)}), ratio to bare insert ${(store.first / bare).toFixed(2)}x`,
    )
    console.log(
      `  ${name}: re-sync write   ${store.resync.toFixed(1)} ms (${perTool(store.resync)}), ratio to bare insert ${(store.resync / bare).toFixed(2)}x`,
    )
    console.log(`  ${name}: bare insert of the same rows, one transaction: ${bare.toFixed(1)} ms (${perTool(bare)})`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
  await pg.drop()
}
