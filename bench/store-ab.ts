/**
 * The SQLite catalog store against another tree's, in one process, interleaved: each on its own file, opened as
 * the host opens it (WAL, synchronous NORMAL, foreign keys, busy_timeout 0) and migrated with its own tree's
 * migrations. Timed: the record of one trivial execution (what every execute writes), a group-committed batch of
 * 32 executions with 2 tool calls each, one shape merge onto a stored row, reading a record back, and what an
 * execute reads to resolve a tool path (its source, then its tool).
 * `pnpm tsx bench/store-ab.ts <other tree>` (about 30 seconds).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import type * as B from "@switchboard/core"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Describe from "@switchboard/core/describe"
import { coreName } from "./core-face.js"
import { timeInterleavedUs } from "./execute/measure.js"

const [otherTree] = process.argv.slice(2)
if (!otherTree) throw new Error("usage: store-ab.ts <other tree>")

const dir = mkdtempSync(join(tmpdir(), "store-ab-"))
const open = async (tree: string, name: string) => {
  const sqlite = new Database(join(dir, `${name}.db`))
  // as the host opens it (apps/server's openSqlite, which migrates from this tree's folder only)
  for (const pragma of ["journal_mode = WAL", "secure_delete = ON", "synchronous = NORMAL", "foreign_keys = ON"])
    sqlite.pragma(pragma)
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder: resolve(tree, "drizzle/sqlite") })
  sqlite.pragma("busy_timeout = 0")
  const store = (await coreName<typeof Catalog.createSqliteCatalogStore>(tree, "catalog", "createSqliteCatalogStore"))(
    db,
  )
  await store.insertSource({
    id: "s1",
    namespace: "svc",
    kind: "mcp",
    config: {},
    status: "ready",
    lastSyncedAt: null,
    syncError: null,
    createdAt: 0,
    updatedAt: 0,
  })
  const tool = { name: "echo", description: null, inputSchema: {}, outputSchema: null, annotations: null }
  // a tree whose CatalogStore takes applySync's arguments one by one is seeded as it takes them
  if (readFileSync(resolve(tree, "packages/core/src/catalog/rows.ts"), "utf8").includes("applySync(synced"))
    await store.applySync({ sourceId: "s1", tools: [tool], encoding: "direct", syncedAt: 1 })
  else await (store.applySync as unknown as (...args: unknown[]) => Promise<void>)("s1", [tool], "direct", 1)
  const toolId = (await store.getTool("svc", "echo"))!.id
  let n = 0
  const execution = (): B.ExecutionRecord => ({
    id: `${name}-${n++}`,
    code: "return 1+1",
    status: "ok",
    startedAt: Date.now(),
    durationMs: 1,
    resultText: "2",
    errorCode: null,
    errorMessage: null,
    logs: [],
    toolCallCount: 2,
    keyId: null,
    keepUntil: null,
  })
  const call = (executionId: string): B.ToolCallRecord => ({
    executionId,
    toolPath: "svc.echo",
    encoding: "direct",
    startedAt: Date.now(),
    durationMs: 1,
    ok: true,
    errorCode: null,
    dataBytes: 10,
    outputSchemaError: null,
  })
  await store.recordBatch([{ execution: { ...execution(), id: `${name}-read` }, calls: [call(`${name}-read`)] }])
  const inferShape = await coreName<typeof Describe.inferShape>(tree, "describe", "inferShape")
  const mergeStoredShapes = await coreName<typeof Describe.mergeStoredShapes>(tree, "describe", "mergeStoredShapes")
  const shape = inferShape({ id: 1, name: "x", tags: ["a"] })
  return {
    close: () => sqlite.close(),
    one: () => store.recordBatch([{ execution: execution(), calls: [] }]),
    batch: () =>
      store.recordBatch(
        Array.from({ length: 32 }, () => {
          const record = execution()
          return { execution: record, calls: [call(record.id), call(record.id)] }
        }),
      ),
    merge: () =>
      store.mergeShapes([{ toolId, encoding: "direct", shape, samples: 1, at: Date.now() }], mergeStoredShapes),
    read: () => store.getExecution(`${name}-read`),
    resolve: async () => {
      await store.getSource("svc")
      await store.getTool("svc", "echo")
    },
  }
}

const a = await open(otherTree, "a")
const b = await open(resolve(import.meta.dirname, ".."), "b")
for (const [what, task, runs] of [
  ["recordBatch, one trivial execution", "one", 20_000],
  ["recordBatch, 32 executions with 2 calls each", "batch", 2_000],
  ["mergeShapes, one observation onto a stored row", "merge", 10_000],
  ["getExecution", "read", 20_000],
  ["getSource + getTool, as an execute resolves a path", "resolve", 20_000],
] as const) {
  const [ta, tb] = await timeInterleavedUs(runs, [a[task], b[task]], Math.min(2_000, runs / 4), 50)
  console.log(`${what}: A ${ta!.toFixed(1)} µs | B ${tb!.toFixed(1)} µs | B/A ${(tb! / ta!).toFixed(3)}`)
}
a.close()
b.close()
rmSync(dir, { recursive: true, force: true })
