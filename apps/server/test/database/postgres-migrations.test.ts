/** Postgres migrations at boot: safe when servers start at once, and lossless for an older database. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import postgres from "postgres"
import { afterEach, expect, it } from "vitest"
import { createTestDatabase } from "@switchboard/fixtures"
import type { TestDatabase } from "@switchboard/fixtures"
import { migratePostgres, postgresMigrationsFolder } from "../../src/database/postgres-database.js"
import { tempDir } from "../support/helpers.js"

let database: TestDatabase | null = null
afterEach(async () => {
  await database?.drop()
  database = null
})

const migrationCount = async (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  const [row] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`
  await sql.end()
  return row!.n as number
}

it("four servers migrating one fresh database at once leave it migrated exactly once", async () => {
  database = await createTestDatabase("switchboard_migrate")
  await Promise.all(Array.from({ length: 4 }, () => migratePostgres(database!.url)))
  const journal = JSON.parse(readFileSync(join(postgresMigrationsFolder, "meta", "_journal.json"), "utf8"))
  expect(await migrationCount(database.url)).toBe(journal.entries.length)
})

it("an older database keeps its rows when the later migrations apply, and new columns are NULL", async () => {
  database = await createTestDatabase("switchboard_migrate")
  const dir = tempDir()
  try {
    const folder = join(dir.dir, "first")
    mkdirSync(join(folder, "meta"), { recursive: true })
    const journal = JSON.parse(readFileSync(join(postgresMigrationsFolder, "meta", "_journal.json"), "utf8"))
    const first = journal.entries[0]
    writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: [first] }))
    copyFileSync(join(postgresMigrationsFolder, `${first.tag}.sql`), join(folder, `${first.tag}.sql`))
    await migratePostgres(database.url, folder)

    const sql = postgres(database.url, { max: 1, onnotice: () => {} })
    await sql`insert into sources (id, namespace, kind, config, status, created_at, updated_at) values ('s1', 'old', 'mcp', ${sql.json({ transport: { type: "http", url: "http://x" } })}, 'ready', 1, 1)`
    await sql`insert into tools (id, source_id, name, path, synced_at) values ('t1', 's1', 'Echo', 'old.Echo', 1)`
    await sql`insert into executions (id, code, status, started_at, duration_ms, tool_call_count) values ('e1', 'return 1', 'ok', 1, 2, 1)`
    await sql`insert into tool_calls (id, execution_id, tool_path, encoding, started_at, duration_ms, ok) values ('c1', 'e1', 'old.Echo', 'direct', 1, 1, true)`
    const columnsBefore = await sql`select column_name from information_schema.columns where table_name = 'tool_calls'`
    expect(columnsBefore.map((c) => c.column_name)).not.toContain("output_schema_error")

    await migratePostgres(database.url)
    const [call] = await sql`select * from tool_calls where id = 'c1'`
    expect(call).toMatchObject({ id: "c1", execution_id: "e1", ok: true, output_schema_error: null })
    // an execution from before keys were recorded has no owner: only admin reads it
    const [execution] = await sql`select id, key_id from executions where id = 'e1'`
    expect(execution).toEqual({ id: "e1", key_id: null })
    const [tool] = await sql`select name, result_encoding from tools where id = 't1'`
    expect(tool).toEqual({ name: "Echo", result_encoding: null })
    const [source] = await sql`select config from sources where id = 's1'`
    expect(source!.config).toEqual({ transport: { type: "http", url: "http://x" } })
    await sql.end()
    expect(await migrationCount(database.url)).toBe(journal.entries.length)
  } finally {
    dir.remove()
  }
})
