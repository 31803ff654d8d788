/**
 * The built CLI writing into a pipe, as a person's shell runs it (issue 25): every byte reaches a reader that is
 * slow to start (`| (sleep 1; cat)`), as it reaches a file (`> out`), and a reader that closes early (`| head -1`)
 * ends the command quietly. Each output here is larger than a pipe's buffer (64 KiB on Linux), which a command
 * that exits before its writes are flushed cuts.
 */
import { spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Auth from "@switchboard/core/auth"
import { ResultEncodings } from "@switchboard/core"
import { fixtureCommand } from "@switchboard/fixtures"
import { openCatalogDatabase } from "../../src/database/catalog-database.js"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { builtCli, builtDir } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

interface ShellResult {
  status: number | null
  stdout: string
  stderr: string
}

/** `switchboard <args><tail>` through bash with pipefail (the status is the CLI's when it fails), in `cwd` */
const shell = (args: string[], tail: string, cwd: string, input = "") =>
  new Promise<ShellResult>((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -o pipefail; "$0" "$@" ${tail}`, process.execPath, builtCli, ...args], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.once("error", (error) => (clearTimeout(timer), reject(error)))
    child.once("close", (status) => (clearTimeout(timer), resolve({ status, stdout, stderr })))
    child.stdin.once("error", () => {})
    child.stdin.end(input)
  })

const dir = tempDir()
const db = join(dir.dir, "catalog.db")
const many = fixtureCommand("many-tools")
const widePaths = Array.from({ length: 100 }, (_, i) => `wide.lookup_${i}`)
let bigRun: string

beforeAll(async () => {
  openSqlite(db).close()
  const added = await runCli([
    "sources",
    "add",
    "many",
    "--db",
    db,
    "--allow-stdio",
    "--env",
    "TOOL_COUNT=3000",
    "--stdio",
    many.command,
    ...many.args,
  ])
  expect(added.stdout, added.stderr).toBe("added many: 3000 tools\n")
  const demo = await runCli([
    "sources",
    "add",
    "demo",
    "--db",
    db,
    "--allow-stdio",
    "--stdio",
    "node",
    join(builtDir, "demo-server.mjs"),
  ])
  expect(demo.status, demo.stderr).toBe(0)
  const database = await openCatalogDatabase(db)
  try {
    const at = Date.now()
    for (let i = 0; i < 600; i++)
      await database.store.insertSource({
        id: `src_${i}`,
        namespace: `listed_${String(i).padStart(4, "0")}`,
        kind: "mcp",
        config: { transport: { type: "http", url: `http://127.0.0.1:9/mcp/${i}`, headers: {} } },
        status: "error",
        lastSyncedAt: null,
        syncError: `the server at http://127.0.0.1:9/mcp/${i} did not answer (ECONNREFUSED)`,
        createdAt: at,
        updatedAt: at,
      })
    // describe shows 100 tools at most: tools with long descriptions make its output larger than a pipe's buffer
    await database.store.insertSource({
      id: "src_wide",
      namespace: "wide",
      kind: "mcp",
      config: { transport: { type: "http", url: "http://127.0.0.1:9/mcp/wide", headers: {} } },
      status: "ready",
      lastSyncedAt: at,
      syncError: null,
      createdAt: at,
      updatedAt: at,
    })
    const wideTools = widePaths.map((path) => ({
      name: path.slice("wide.".length),
      description: `Looks a record up. ${"It reads the record's fields and answers them. ".repeat(40)}`,
      inputSchema: { type: "object", properties: { id: { type: "string", description: "the record's id" } } },
      outputSchema: null,
      annotations: null,
    }))
    await database.store.applySync({
      sourceId: "src_wide",
      tools: wideTools,
      encoding: ResultEncodings.mcpCallToolResultV2,
      syncedAt: at,
    })
    const keys = Auth.createApiKeyService(database.store)
    for (let i = 0; i < 1000; i++) await keys.create(`agent-number-${i}-of-a-long-list`, ["execute"])
  } finally {
    await database.close()
  }
  bigRun = join(dir.dir, "big.ts")
  writeFileSync(
    bigRun,
    'return Array.from({ length: 5000 }, (_, i) => "line " + i + " " + "x".repeat(40)).join("\\n")\n',
  )
}, 120_000)
afterAll(() => dir.remove())

describe("a slow reader of a pipe gets the whole output, as a file does", () => {
  const cases: [string, () => string[], string?][] = [
    ["run", () => ["run", bigRun, "--db", db]],
    ["executions output", () => ["executions", "output", newestId(), "--db", db]],
    ["describe", () => ["describe", ...widePaths, "--db", db]],
    ["describe --json", () => ["describe", ...widePaths, "--json", "--db", db]],
    ["tools", () => ["tools", "--db", db]],
    ["tools --json", () => ["tools", "--json", "--db", db]],
    ["sources list", () => ["sources", "list", "--db", db]],
    ["sources list --json", () => ["sources", "list", "--json", "--db", db]],
    [
      "call",
      () => ["call", "demo.greet", "-", "--db", db, "--allow-stdio"],
      JSON.stringify({ name: "A".repeat(200_000) }),
    ],
    [
      "call --json",
      () => ["call", "demo.greet", "-", "--json", "--db", db, "--allow-stdio"],
      JSON.stringify({ name: "B".repeat(200_000) }),
    ],
    ["keys list", () => ["keys", "list", "--db", db]],
    ["keys list --json", () => ["keys", "list", "--json", "--db", db]],
    ["config schema", () => ["config", "schema"]],
  ]
  // a result this large is stored in parts, its result_text then "": the run is found by its code
  const newestId = () => {
    const sqlite = new Database(db, { readonly: true })
    try {
      return (
        sqlite
          .prepare("select id from executions where code like '%\"line \"%' order by started_at desc limit 1")
          .get() as { id: string }
      ).id
    } finally {
      sqlite.close()
    }
  }

  it.each(cases)(
    "%s",
    async (name, args, input) => {
      const out = join(dir.dir, `${name.replaceAll(" ", "-")}.out`)
      const toFile = await shell(args(), `> '${out}'`, dir.dir, input)
      expect(toFile.status, toFile.stderr).toBe(0)
      const whole = readFileSync(out, "utf8")
      if (name !== "config schema") expect(whole.length, name).toBeGreaterThan(65_536)
      const piped = await shell(args(), "| (sleep 1; cat)", dir.dir, input)
      expect(piped.status, piped.stderr).toBe(0)
      expect(piped.stdout.length, name).toBe(whole.length)
      expect(piped.stdout === whole, name).toBe(true)
    },
    60_000,
  )
})

it("a reader that closes the pipe early (| head -1) ends the command quietly: no stack, exit 0", async () => {
  for (const args of [
    ["tools", "--db", db],
    ["keys", "list", "--db", db],
    ["sources", "list", "--db", db],
  ]) {
    const first = await shell(args, "| head -1", dir.dir)
    expect(first.stderr, args.join(" ")).toBe("")
    expect(first.status, args.join(" ")).toBe(0)
    expect(first.stdout.split("\n")).toHaveLength(2)
  }
}, 60_000)
