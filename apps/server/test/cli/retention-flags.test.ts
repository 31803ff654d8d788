/** `switchboard serve --retain … --retain-executions …`: a malformed value stops the start, a good one is announced. */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

let cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

it("a malformed --retain or --retain-executions exits 2 naming the flag, before any database is opened", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  const db = join(dir.dir, "never.db")
  for (const [flag, value] of [
    ["--retain", "7"],
    ["--retain", "0d"],
    ["--retain-executions", "1e5"],
    ["--retain-executions", "0"],
  ] as const) {
    const run = await runCli(["serve", "--db", db, flag, value])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`${flag} must be`)
  }
  expect(readdirSync(dir.dir)).toEqual([])
}, 60_000)

it("serve --retain 7d --retain-executions 100000 says what it keeps", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  const server: ServeProcess = await spawnServe([
    "--db",
    join(dir.dir, "catalog.db"),
    "--retain",
    "7d",
    "--retain-executions",
    "100000",
  ])
  cleanups.push(() => server.stop())
  // stderr is a pipe of its own: what was written before the listening line may arrive after it
  for (let i = 0; i < 100 && !server.stderr().includes("executions are kept"); i++)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect(server.stderr()).toContain(
    "switchboard: executions are kept while started in the last 7d and among the newest 100000 (one whose output a model was told to read: an hour at least)",
  )
}, 60_000)
