/**
 * The upgrade path on a real SQLite file: rows written before `result_encoding` existed (NULL) behave
 * exactly as before, until a sync stamps them; no row is ever half-old and half-new. And the schema
 * itself: an older database gains the newer migrations, and the boot safety net restores a missing
 * nullable column.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { migrate } from "drizzle-orm/better-sqlite3/migrator"
import { expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { openSqlite, sqliteMigrationsFolder } from "../../src/database/sqlite-database.js"
import { startTestServer, tempDir } from "../support/helpers.js"

/** A database as the first release left it: only the first migration applied. */
const createWithFirstMigrationOnly = (dbPath: string, scratch: string) => {
  const folder = join(scratch, "first-migration")
  mkdirSync(join(folder, "meta"), { recursive: true })
  const journal = JSON.parse(readFileSync(join(sqliteMigrationsFolder, "meta", "_journal.json"), "utf8"))
  const first = journal.entries[0]
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: [first] }))
  copyFileSync(join(sqliteMigrationsFolder, `${first.tag}.sql`), join(folder, `${first.tag}.sql`))
  const sqlite = new Database(dbPath)
  migrate(drizzle(sqlite), { migrationsFolder: folder })
  return sqlite
}

it("an old database keeps its rows when the later migrations apply; new columns are NULL", () => {
  const dir = tempDir()
  try {
    const dbPath = join(dir.dir, "old.db")
    const sqlite = createWithFirstMigrationOnly(dbPath, dir.dir)
    sqlite.exec(
      `insert into executions (id, code, status, started_at, duration_ms, tool_call_count) values ('e1', 'return 1', 'ok', 1, 2, 1)`,
    )
    sqlite.exec(
      `insert into tool_calls (id, execution_id, tool_path, encoding, started_at, duration_ms, ok) values ('c1', 'e1', 'a.b', 'direct', 1, 1, 1)`,
    )
    expect(
      sqlite
        .prepare(`pragma table_info(tool_calls)`)
        .all()
        .map((c: any) => c.name),
    ).not.toContain("output_schema_error")
    sqlite.close()

    const opened = openSqlite(dbPath)
    const row = opened.sqlite.prepare(`select * from tool_calls where id = 'c1'`).get() as Record<string, unknown>
    expect(row).toMatchObject({ id: "c1", execution_id: "e1", tool_path: "a.b", output_schema_error: null })
    expect(opened.sqlite.prepare(`select count(*) as n from executions`).get()).toEqual({ n: 1 })
    // an execution from before keys were recorded has no owner: only admin reads it
    expect(opened.sqlite.prepare(`select id, key_id from executions`).get()).toEqual({ id: "e1", key_id: null })
    opened.close()
  } finally {
    dir.remove()
  }
})

it("the boot safety net adds a nullable column an older database lacks", () => {
  const dir = tempDir()
  try {
    const dbPath = join(dir.dir, "drifted.db")
    const first = openSqlite(dbPath)
    first.sqlite.exec(`alter table tools drop column result_encoding`)
    // SQLite will not drop an indexed column; a database without key_id has no index on it (migration 0008) either,
    // and the net adds columns only
    first.sqlite.exec(`drop index executions_key_id_idx`)
    first.sqlite.exec(`alter table executions drop column key_id`)
    first.close()
    const reopened = openSqlite(dbPath)
    expect(
      reopened.sqlite
        .prepare(`pragma table_info(tools)`)
        .all()
        .map((c: any) => c.name),
    ).toContain("result_encoding")
    expect(
      reopened.sqlite
        .prepare(`pragma table_info(executions)`)
        .all()
        .map((c: any) => c.name),
    ).toContain("key_id")
    reopened.close()
  } finally {
    dir.remove()
  }
})

it("NULL-encoded rows return the whole envelope until a sync stamps them; a concurrent call sees one or the other", async () => {
  const dir = tempDir()
  const dbPath = join(dir.dir, "catalog.db")
  try {
    // a catalog synced by a build that predates result_encoding: same rows, column NULL
    const first = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    expect(
      (
        await first.request("POST", "/v1/sources", {
          namespace: "contract",
          kind: "mcp",
          transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
        })
      ).status,
    ).toBe(201)
    await first.stop()
    const sqlite = new Database(dbPath)
    sqlite.exec(`update tools set result_encoding = null`)
    sqlite.close()

    const server = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    try {
      const envelope = {
        structuredContent: { temperature: 22.5, conditions: "Partly cloudy" },
        content: [{ type: "text", text: '{"conditions": "Partly cloudy", "temperature": 22.5}' }],
      }
      const decoded = { temperature: 22.5, conditions: "Partly cloudy" }
      const old = await server.execute(`return await tools.contract.structured({})`)
      expect(old.result).toEqual({ ok: true, data: envelope })
      expect((await server.request("GET", "/v1/tools/contract.structured")).body.tool.resultEncoding).toBeNull()

      const calls = Array.from({ length: 12 }, () =>
        server.execute(`return (await tools.contract.structured({})).data`),
      )
      const sync = server.request("POST", "/v1/sources/contract/sync")
      const results = await Promise.all(calls)
      expect((await sync).status).toBe(200)
      for (const response of results) expect([envelope, decoded]).toContainEqual(response.result)

      expect((await server.request("GET", "/v1/tools/contract.structured")).body.tool.resultEncoding).toBe(
        "mcp-call-tool-result-v2",
      )
      expect((await server.execute(`return (await tools.contract.structured({})).data`)).result).toEqual(decoded)
    } finally {
      await server.stop()
    }
  } finally {
    dir.remove()
  }
}, 60_000)
