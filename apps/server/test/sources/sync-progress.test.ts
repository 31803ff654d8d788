/**
 * Sync progress against a fixture MCP server whose listing has many pages (many-tools, 100 tools a page): the
 * progress line a CLI command shows while it waits on `sources.add`, and the log lines of a sync.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, expect, it } from "vitest"
import * as Catalog from "@switchboard/core/catalog"
import * as Sources from "@switchboard/core/sources"
import { fixtureCommand } from "@switchboard/fixtures"
import { createMcpPlugin } from "@switchboard/plugin-mcp/node"
import { createHost } from "../../src/compose.js"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { syncProgressLine } from "../../src/commands/sync-progress-line.js"
import { memoryLogger, tempDir } from "../support/helpers.js"

let cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

const manyTools = (count: number) => ({
  namespace: "many",
  kind: "mcp",
  transport: { type: "stdio", ...fixtureCommand("many-tools"), env: { TOOL_COUNT: String(count) } },
})

const output = (isTTY: boolean) => {
  const writes: string[] = []
  return { writes, isTTY, write: (text: string) => (writes.push(text), true) }
}

it("a CLI's progress line: rewritten in place on a terminal at each page, one summary line elsewhere", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  const host = await createHost({
    db: join(dir.dir, "catalog.db"),
    allowStdio: true,
    runtime: "in-thread",
    logger: memoryLogger().logger,
  })
  cleanups.push(() => host.close())
  const terminal = output(true)
  const line = syncProgressLine("many", terminal)
  const view = await Effect.runPromise(
    host.sources.add(manyTools(2_450), { onProgress: line.onProgress }).pipe(Effect.ensuring(Effect.sync(line.end))),
  )
  expect(view.toolCount).toBe(2_450)
  expect(terminal.writes).toHaveLength(26)
  expect(terminal.writes[0]).toBe("\rsyncing many: 1 page of tools/list read, 100 tools\x1b[K")
  expect(terminal.writes[24]).toBe("\rsyncing many: 25 pages of tools/list read, 2450 tools\x1b[K")
  expect(terminal.writes[25]).toBe("\n")

  const pipe = output(false)
  const piped = syncProgressLine("many", pipe)
  await Effect.runPromise(host.sources.sync("many", { onProgress: piped.onProgress }))
  piped.end()
  expect(pipe.writes).toEqual(["syncing many: 25 pages of tools/list read, 2450 tools\n"])
}, 60_000)

it("a sync logs its progress page by page once it has run past the interval (here 0), and when it has read every page", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  const sqlite = openSqlite(join(dir.dir, "catalog.db"))
  cleanups.push(sqlite.close)
  const plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000 })
  cleanups.push(() => plugin.close())
  const { logger, lines } = memoryLogger()
  const sources = Sources.createSourcesService({
    store: Catalog.createSqliteCatalogStore(sqlite.db),
    plugins: [plugin],
    logger,
    progressLogMs: 0,
  })
  await Effect.runPromise(sources.add(manyTools(1_200)))
  const progress = lines.filter((l) => l.message === "sync progress")
  // page 1 alone says nothing of a long listing
  expect(progress.map((l) => l.details)).toEqual(
    Array.from({ length: 11 }, (_, i) => ({ namespace: "many", pages: i + 2, tools: 100 * (i + 2) })),
  )
  const end = lines.find((l) => l.message === "sync read every page")
  expect(end?.details).toMatchObject({ namespace: "many", pages: 12, tools: 1_200 })
  expect(lines.at(-1)).toBe(end)
}, 60_000)
