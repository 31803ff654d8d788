/**
 * Another writer between a write's reads and its batch, as on D1 (which runs the reads outside the batch): a
 * SQLite store whose batches let "the other writer" in first, at a chosen batch. Shape merges are raced, and so are
 * syncs.
 */
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { fileURLToPath } from "node:url"
import { afterEach, expect, it } from "vitest"
import { createCatalogStore } from "../src/catalog/store.js"
import { inferShape } from "../src/shapes/infer-shape.js"
import { MAX_MERGE_ROUNDS } from "../src/catalog/shape-merge.js"
import { mergeStoredShapes } from "../src/shapes/normalize-shape.js"
import * as sqliteSchema from "../src/catalog/schema-sqlite.js"
import type { CatalogDb } from "../src/catalog/dialect.js"
import { source, tool } from "./catalog-store.shared.js"

const opened: Database.Database[] = []
afterEach(() => {
  for (const sqlite of opened.splice(0)) sqlite.close()
})

/** a store whose every batch first runs `between(batch number)`: what another server wrote meanwhile */
const racedStore = async (between: (sqlite: Database.Database, batch: number) => void) => {
  const sqlite = new Database(":memory:")
  opened.push(sqlite)
  sqlite.pragma("foreign_keys = ON")
  const db = drizzle(sqlite)
  migrate(db, { migrationsFolder: fileURLToPath(new URL("../../../drizzle/sqlite", import.meta.url)) })
  let batches = 0
  const store = createCatalogStore({
    db: db as unknown as CatalogDb,
    tables: sqliteSchema,
    maxParameters: 100,
    writeBatch: async (build) => {
      const statements = await build(db as unknown as CatalogDb)
      between(sqlite, batches++)
      return sqlite.transaction(() =>
        statements.map((statement) => (statement as unknown as { run(): { changes: number } }).run().changes),
      )()
    },
    probeWrite: async () => {},
  })
  await store.insertSource(source("s"))
  await store.applySync({ sourceId: "id-s", tools: [tool("t")], encoding: "direct", syncedAt: 1 })
  const toolId = (await store.getTool("s", "t"))!.id
  const observe = (at: number) =>
    store.mergeShapes([{ toolId, encoding: "direct", shape: inferShape({ at }), samples: 1, at }], mergeStoredShapes)
  return { store, toolId, observe, batches: () => batches }
}

const otherWriter = (sqlite: Database.Database, toolId: string) =>
  sqlite
    .prepare(
      `insert into tool_shapes (tool_id, encoding, shape, sample_count, first_seen_at, last_seen_at)
       values (?, 'direct', '{"kind":"unknown"}', 10, 5, 5)
       on conflict do update set sample_count = sample_count + 10`,
    )
    .run(toolId)

it("an observation raced by another writer is read again and merged onto what that writer left", async () => {
  let toolId = ""
  // batch 0 is the sync; the other writer inserts the row just before the first merge's batch, then updates it
  // before the second merge's
  const raced = await racedStore((sqlite, batch) => {
    if (batch === 1 || batch === 3) otherWriter(sqlite, toolId)
  })
  toolId = raced.toolId
  await raced.observe(100)
  expect(raced.batches()).toBe(3) // the insert found the row taken, and the update of the next round applied
  expect(await raced.store.getShape(toolId, "direct")).toMatchObject({
    sampleCount: 11,
    firstSeenAt: 5,
    lastSeenAt: 100,
  })
  await raced.observe(200)
  expect(raced.batches()).toBe(5)
  expect((await raced.store.getShape(toolId, "direct"))?.sampleCount).toBe(22)
})

it(`a merge raced in each of ${MAX_MERGE_ROUNDS} rounds fails with an error that says so, and writes nothing`, async () => {
  let toolId = ""
  const raced = await racedStore((sqlite, batch) => {
    if (batch > 0) otherWriter(sqlite, toolId)
  })
  toolId = raced.toolId
  await expect(raced.observe(100)).rejects.toMatchObject({
    _tag: "DatabaseFault",
    message: expect.stringMatching(/shapes of 1 tool\(s\) were not merged: other writers changed the same rows/),
  })
  expect((await raced.store.getShape(toolId, "direct"))?.sampleCount).toBe(10 * MAX_MERGE_ROUNDS)
})

it("a sync raced by another sync leaves its own listing: tools it never read are deleted by their stamp", async () => {
  const raced = await racedStore((sqlite, batch) => {
    if (batch === 1)
      sqlite
        .prepare(
          `insert into tools (id, source_id, name, path, input_schema, synced_at) values ('o', 'id-s', 'other', 's.other', '{}', 7)`,
        )
        .run()
  })
  await raced.store.applySync({ sourceId: "id-s", tools: [tool("t"), tool("u")], encoding: "direct", syncedAt: 8 })
  expect((await raced.store.listTools({})).map((t) => t.name)).toEqual(["t", "u"])
})

it("a sync whose source is deleted between its read and its batch fails and writes nothing", async () => {
  const raced = await racedStore((sqlite, batch) => {
    if (batch === 1) sqlite.prepare("delete from sources where id = 'id-s'").run()
  })
  await expect(
    raced.store.applySync({ sourceId: "id-s", tools: [tool("t"), tool("u")], encoding: "direct", syncedAt: 8 }),
  ).rejects.toThrow(/FOREIGN KEY/)
  expect(await raced.store.listTools({})).toEqual([])
  expect(await raced.store.listSources()).toEqual([])
})
