/**
 * The built CLI: a result printed through the same renderer as every other surface (a string as its own text),
 * keys, and a mistyped --db (issue 17): only serve and demo create a database.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { Effect } from "effect"
import { fixtureCommand } from "@switchboard/fixtures"
import { createHost } from "../src/compose.js"
import { openSqlite } from "../src/sqlite-database.js"
import { builtDir, cliArgs } from "./built-cli.js"
import { TEST_SECRET_KEY, memoryLogger, tempDir } from "./helpers.js"
import { call, spawnServe } from "./process-harness.js"

const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, cliArgs(args), { input, encoding: "utf8", timeout: 60_000 })

/** a catalog as `serve` leaves it: the commands that only use one refuse a path where there is none */
const newCatalog = (path: string) => {
  openSqlite(path).close()
  return path
}

it("switchboard run prints a string result as its own text and an object as JSON; a failure exits 1 with the code", () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "cli.db"))
    const text = run(["run", "-", "--db", db], 'return "a \\"quoted\\"\\tline\\nand a lone \\uD800"')
    expect(text.status).toBe(0)
    expect(text.stdout).toBe('a "quoted"\tline\nand a lone \uFFFD\n')
    const object = run(["run", "-", "--db", db], "return { n: 1, s: 'x' }")
    expect(object.stdout).toBe('{"n":1,"s":"x"}\n')
    const failed = run(["run", "-", "--db", db], "throw new Error('nope')")
    expect(failed.status).toBe(1)
    expect(failed.stderr).toMatch(/error \(runtime_error\).*nope/)
    const usage = run(["frobnicate"])
    expect(usage.status).toBe(2)
    expect(usage.stdout).toContain("commands:")
  } finally {
    dir.remove()
  }
}, 60_000)

it("switchboard keys create sets scopes (--scope repeated or comma-separated); an unknown or missing scope is a clear error; keys list shows them", () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "keys.db"))
    const created = run(["keys", "create", "agent", "--scope", "execute", "--db", db])
    expect(created.status, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/^sb_[A-Za-z0-9_-]{43}\n$/)
    expect(created.stderr).toContain("scopes execute")
    expect(run(["keys", "create", "both", "--scope", "read,execute", "--scope", "admin", "--db", db]).status).toBe(0)
    const unknown = run(["keys", "create", "bad", "--scope", "execute,root", "--db", db])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown scope "root"; the scopes are read, execute, admin')
    const missing = run(["keys", "create", "none", "--db", db])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain("keys create needs --scope (read, execute, admin)")
    const listed = run(["keys", "list", "--db", db])
    expect(
      listed.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t").slice(1, 4)),
    ).toEqual([
      ["agent", "execute", "live"],
      ["both", "read,execute,admin", "live"],
    ])
  } finally {
    dir.remove()
  }
}, 60_000)

it.each([
  ["tools", ["tools"]],
  ["tools --query", ["tools", "--query", "weather"]],
  ["run", ["run", "-"]],
  ["mcp", ["mcp"]],
  ["keys create", ["keys", "create", "agent", "--scope", "execute"]],
  ["keys list", ["keys", "list"]],
])(
  "a mistyped --db is an error for %s: it says so, exits 2 and creates nothing",
  (_, args) => {
    const dir = tempDir()
    try {
      const db = join(dir.dir, "typo", "catalog.db")
      const result = run([...args, "--db", db], "return 1")
      expect(result.status, result.stderr).toBe(2)
      expect(result.stderr).toContain(`no catalog database at ${db}`)
      expect(result.stderr).toContain("`switchboard serve` or `demo` creates a new one")
      expect(result.stdout).toBe("")
      // not the database, nor its folder, nor a key file beside it
      expect(readdirSync(dir.dir)).toEqual([])
    } finally {
      dir.remove()
    }
  },
  30_000,
)

it("the default database is checked the same way: a command run where no catalog was made says which path it looked at", () => {
  const dir = tempDir()
  try {
    const { SWITCHBOARD_DB, DATABASE_URL, ...env } = process.env
    const result = spawnSync(process.execPath, cliArgs(["tools"]), { cwd: dir.dir, encoding: "utf8", env })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain(`no catalog database at ${join(dir.dir, ".switchboard", "switchboard.db")}`)
    expect(existsSync(join(dir.dir, ".switchboard"))).toBe(false)
  } finally {
    dir.remove()
  }
}, 30_000)

it("serve creates a database that is not there and prints its path; started again on it, it creates nothing and says nothing of it", async () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "new", "catalog.db")
    const first = await spawnServe(["--db", db])
    await first.stop()
    expect(first.stdout()).toContain(`switchboard: created a new catalog database at ${db}\n`)
    expect(existsSync(db)).toBe(true)
    const again = await spawnServe(["--db", db])
    await again.stop()
    expect(again.stdout()).not.toContain("created")
  } finally {
    dir.remove()
  }
}, 60_000)

it("demo creates its database and prints its path; on a catalog whose demo source another build registered, it registers its own again and calls it", async () => {
  const dir = tempDir()
  try {
    const fresh = await spawnServe(["--db", join(dir.dir, "fresh.db")], { command: "demo" })
    await fresh.stop()
    expect(fresh.stdout()).toContain(`switchboard: created a new catalog database at ${join(dir.dir, "fresh.db")}\n`)

    // what `demo` stored before the CLI was built: its demo server through tsx, from the sources
    const db = join(dir.dir, "older.db")
    const host = await createHost({ db, allowStdio: true, secretKey: TEST_SECRET_KEY, logger: memoryLogger().logger })
    const older = { namespace: "demo", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("demo-server") } }
    await Effect.runPromise(host.sources.add(older))
    await host.close()
    const demo = await spawnServe(["--db", db], { command: "demo", env: { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY } })
    try {
      const sum = await call(demo.url, "POST", "/v1/execute", {
        code: "return (await tools.demo.add({ a: 2, b: 3 })).data",
      })
      expect(sum.body.result, JSON.stringify(sum.body)).toEqual({ sum: 5 })
      const sources = await call(demo.url, "GET", "/v1/sources")
      expect(sources.body.sources[0].config.transport.args).toEqual([join(builtDir, "demo-server.mjs")])
    } finally {
      await demo.stop()
    }
    expect(demo.stdout()).not.toContain("created")
  } finally {
    dir.remove()
  }
}, 90_000)
