/** A migrated SQLite file in a temporary folder, with the store over it: for tests that need a real database. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { createExecutor } from "../src/executor/executor.js"
import type { ExecutorOptions } from "../src/executor/executor.js"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { CatalogStore, CodeRuntime, SourcePlugin } from "../src/index.js"

export const openSqliteStore = () => {
  const dir = mkdtempSync(join(tmpdir(), "store-"))
  const sqlite = new Database(join(dir, "catalog.db"))
  sqlite.pragma("journal_mode = WAL")
  sqlite.pragma("foreign_keys = ON")
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  return {
    dir,
    store: createSqliteCatalogStore(db),
    close: () => {
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The store above with one source, namespace and kind "fake" (id "s1"), whose catalog holds the tools named (`direct`). */
export const openStoreWithFakeSource = async (...tools: string[]) => {
  const opened = openSqliteStore()
  await opened.store.insertSource({
    id: "s1",
    namespace: "fake",
    kind: "fake",
    config: {},
    status: "ready",
    lastSyncedAt: 1,
    syncError: null,
    createdAt: 1,
    updatedAt: 1,
  })
  await opened.store.applySync({
    sourceId: "s1",
    tools: tools.map((name) => ({ name, description: null, inputSchema: {}, outputSchema: null, annotations: null })),
    encoding: "direct",
    syncedAt: 1,
  })
  return opened
}

/** An executor over `store` whose sources are always fresh, with one plugin and a silent logger. */
export const executorOver = (
  store: CatalogStore,
  runtime: CodeRuntime,
  plugin: SourcePlugin,
  options: Partial<ExecutorOptions> = {},
) =>
  createExecutor({
    store,
    sources: { ensureFresh: async (row) => row, markStale: () => {}, recordConnectFailure: async () => {} },
    runtime,
    plugins: [plugin],
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    ...options,
  })
