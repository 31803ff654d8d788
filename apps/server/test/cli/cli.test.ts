/**
 * The built CLI: a result printed through the same renderer as every other surface (a string as its own text),
 * keys, and a mistyped --db (issue 17): only serve and demo create a database.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { Effect } from "effect"
import { createTestDatabase, fixtureCommand } from "@switchboard/fixtures"
import { createHost } from "../../src/compose.js"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { builtDir } from "../support/built-cli.js"
import { TEST_SECRET_KEY, memoryLogger, tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

/** a catalog as `serve` leaves it: the commands that only use one refuse a path where there is none */
const newCatalog = (path: string) => {
  openSqlite(path).close()
  return path
}

it("switchboard run prints a string result as its own text and an object as JSON; a failure exits 1 with the code", async () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "cli.db"))
    const text = await runCli(["run", "-", "--db", db], {
      input: 'return "a \\"quoted\\"\\tline\\nand a lone \\uD800"',
    })
    expect(text.status).toBe(0)
    expect(text.stdout).toBe('a "quoted"\tline\nand a lone \uFFFD\n')
    const object = await runCli(["run", "-", "--db", db], { input: "return { n: 1, s: 'x' }" })
    expect(object.stdout).toBe('{"n":1,"s":"x"}\n')
    const failed = await runCli(["run", "-", "--db", db], { input: "throw new Error('nope')" })
    expect(failed.status).toBe(1)
    expect(failed.stderr).toMatch(/error \(runtime_error\).*nope/)
    // a mistake: named, with the usage, on stderr
    const usage = await runCli(["frobnicate"])
    expect(usage.status).toBe(2)
    expect(usage.stderr).toContain("switchboard: unknown command 'frobnicate'")
    expect(usage.stderr).toContain("Commands:")
  } finally {
    dir.remove()
  }
}, 60_000)

it("switchboard keys create sets scopes (--scope repeated or comma-separated); an unknown or missing scope is a clear error; keys list shows them", async () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "keys.db"))
    const created = await runCli(["keys", "create", "agent", "--scope", "execute", "--db", db])
    expect(created.status, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/^sb_[A-Za-z0-9_-]{43}\n$/)
    expect(created.stderr).toContain("scopes execute")
    expect(
      (await runCli(["keys", "create", "both", "--scope", "read,execute", "--scope", "admin", "--db", db])).status,
    ).toBe(0)
    const unknown = await runCli(["keys", "create", "bad", "--scope", "execute,root", "--db", db])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown scope "root"; the scopes are read, execute, admin')
    const missing = await runCli(["keys", "create", "none", "--db", db])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain("keys create needs --scope (read, execute, admin)")
    const listed = await runCli(["keys", "list", "--db", db])
    const [header, ...rows] = listed.stdout.trimEnd().split("\n")
    expect(header!.split(/\s{2,}/)).toEqual(["ID", "NAME", "SCOPES", "STATUS", "CREATED"])
    expect(rows.map((line) => line.split(/\s{2,}/).slice(1, 4))).toEqual([
      ["agent", "execute", "live"],
      ["both", "read,execute,admin", "live"],
    ])
    const asJson = JSON.parse((await runCli(["keys", "list", "--json", "--db", db])).stdout)
    expect(asJson.keys.map((k: { name: string; scope: string }) => [k.name, k.scope])).toEqual([
      ["agent", "execute"],
      ["both", "admin"],
    ])
    expect(JSON.stringify(asJson)).not.toMatch(/sb_|hash/)
  } finally {
    dir.remove()
  }
}, 60_000)

/** every command that opens an existing catalog, with arguments it would otherwise accept */
const catalogCommands: [string, string[]][] = [
  ["tools", ["tools"]],
  ["tools --query", ["tools", "--query", "weather"]],
  ["run", ["run", "-"]],
  ["mcp", ["mcp"]],
  ["keys create", ["keys", "create", "agent", "--scope", "execute"]],
  ["keys list", ["keys", "list"]],
  ["keys revoke", ["keys", "revoke", "k_1"]],
  ["sources list", ["sources", "list"]],
  [
    "sources add",
    ["sources", "add", '{"namespace":"x","kind":"mcp","transport":{"type":"http","url":"http://127.0.0.1:9/"}}'],
  ],
  ["sources sync", ["sources", "sync", "x"]],
  ["sources remove", ["sources", "remove", "x"]],
  ["describe", ["describe", "x.y"]],
  ["call", ["call", "x.y", "{}"]],
  ["executions list", ["executions", "list"]],
  ["executions show", ["executions", "show", "e_1"]],
  ["executions output", ["executions", "output", "e_1"]],
]

/** what --db may wrongly name, each made in `dir`, and what the command must say of it */
const notCatalogs: { kind: string; make: (dir: string) => string; says: (path: string) => string }[] = [
  {
    kind: "a path where there is nothing",
    make: (dir) => join(dir, "typo", "catalog.db"),
    says: (path) =>
      `no catalog database at ${path}: check --db (\`switchboard init\`, \`serve\` or \`demo\` creates a new one)`,
  },
  {
    kind: "a directory",
    make: (dir) => (mkdirSync(join(dir, "folder.db")), join(dir, "folder.db")),
    says: (path) => `${path} is a directory, not a catalog database: check --db`,
  },
  {
    kind: "an empty file",
    make: (dir) => (writeFileSync(join(dir, "empty.db"), ""), join(dir, "empty.db")),
    says: (path) => `${path} is an empty file, not a catalog database: check --db`,
  },
  {
    kind: "a text file",
    make: (dir) => (writeFileSync(join(dir, "notes.txt"), "not a database\n"), join(dir, "notes.txt")),
    says: (path) => `${path} is not a SQLite database (it does not start with "SQLite format 3"): check --db`,
  },
]

it.each(catalogCommands)(
  "%s refuses a --db that is not a catalog (nothing there, a directory, an empty or a text file): it names the path, exits 2 and changes nothing",
  async (_, args) => {
    const dir = tempDir()
    try {
      const cases = notCatalogs.map((bad) => ({ ...bad, path: bad.make(dir.dir) }))
      const before = readdirSync(dir.dir).sort()
      const results = await Promise.all(cases.map(({ path }) => runCli([...args, "--db", path], { input: "return 1" })))
      cases.forEach(({ kind, path, says }, i) => {
        const result = results[i]!
        expect(result.status, `${kind}: ${result.stderr}`).toBe(2)
        expect(result.stderr, kind).toBe(`switchboard: ${says(path)}\n`)
        expect(result.stdout, kind).toBe("")
      })
      // no database, folder, key file or -wal made, and the files there as they were
      expect(readdirSync(dir.dir).sort()).toEqual(before)
      expect(readdirSync(join(dir.dir, "folder.db"))).toEqual([])
      expect(readFileSync(join(dir.dir, "empty.db"), "utf8")).toBe("")
      expect(readFileSync(join(dir.dir, "notes.txt"), "utf8")).toBe("not a database\n")
    } finally {
      dir.remove()
    }
  },
  60_000,
)

it("a --db that is a SQLite catalog, a postgres:// URL or :memory: is not refused by the check", async () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "real.db"))
    expect((await runCli(["keys", "list", "--db", db])).status).toBe(0)
    expect((await runCli(["keys", "list", "--db", ":memory:"])).status).toBe(0)
    // an unreachable Postgres: it fails opening it, not at the check
    const postgres = await runCli(["keys", "list", "--db", "postgres://nobody@127.0.0.1:1/none"])
    expect(postgres.stderr).not.toContain("check --db")
  } finally {
    dir.remove()
  }
}, 60_000)

it("the default database is checked the same way: a command run where no catalog was made says which path it looked at", async () => {
  const dir = tempDir()
  try {
    const result = await runCli(["tools"], {
      cwd: dir.dir,
      env: { SWITCHBOARD_DB: undefined, DATABASE_URL: undefined },
    })
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

it("serve on a Postgres URL with a password, and a command given a server URL with one, print no password", async () => {
  const database = await createTestDatabase("switchboard_cli")
  try {
    // the test server trusts every local connection: the password is only carried, never checked
    const url = new URL(database.url)
    url.password = "s3cret"
    const server = await spawnServe(["--db", `${url}`, "--require-key"], {
      env: { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY },
    })
    await server.stop()
    const printed = server.stdout() + server.stderr()
    expect(printed).toContain("switchboard listening on ")
    expect(printed).toContain(`(catalog: postgres://postgres:<redacted>@${url.host}${url.pathname})`)
    expect(printed).toContain("every route but /healthz and /readyz needs an API key")
    expect(printed).not.toContain("s3cret")
  } finally {
    await database.drop()
  }
  for (const url of ["http://u:s3cret@127.0.0.1:1", "ftp://u:s3cret@127.0.0.1:1"]) {
    const listed = await runCli(["sources", "list", "--url", url])
    expect(listed.status).not.toBe(0)
    expect(listed.status).toBe(2)
    expect(listed.stderr).toContain("u:<redacted>@127.0.0.1:1")
    expect(listed.stderr).not.toContain("s3cret")
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

it("init makes a new catalog and prints its first admin key once; the key works on a server; a catalog that is there is refused", async () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "fresh", "new.db")
    // without init, a command on a new path says how to make one
    const before = await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db])
    expect(before.status).toBe(2)
    expect(before.stderr).toContain("`switchboard init`")
    const made = await runCli(["init", "--db", db])
    expect(made.status, made.stderr).toBe(0)
    expect(made.stdout).toMatch(/^sb_[A-Za-z0-9_-]{43}\n$/)
    expect(made.stderr).toContain(`created a new catalog database at ${db}`)
    expect(made.stderr).toContain("scopes admin")
    const key = made.stdout.trim()
    const keys = JSON.parse((await runCli(["keys", "list", "--json", "--db", db])).stdout).keys
    expect(keys.map((k: { name: string; scope: string }) => [k.name, k.scope])).toEqual([["admin", "admin"]])
    const server = await spawnServe(["--db", db, "--require-key"])
    try {
      const listed = await runCli(["sources", "list", "--url", server.url], { env: { SWITCHBOARD_KEY: key } })
      expect(listed.status, listed.stderr).toBe(0)
    } finally {
      await server.stop()
    }
    const again = await runCli(["init", "--db", db])
    expect(again.status).toBe(2)
    expect(again.stdout).toBe("")
    expect(again.stderr).toContain(`there is a catalog at ${db} already`)
  } finally {
    dir.remove()
  }
}, 60_000)

it("serve stores $SWITCHBOARD_ADMIN_KEY as an admin key, once; a malformed one stops it; with no key it says to make an admin key first", async () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "served.db")
    const none = await spawnServe(["--db", db, "--require-key"])
    await none.stop()
    expect(none.stderr()).toContain(
      "there is none: create the first, an admin key, with: switchboard keys create <name> --scope admin",
    )
    expect(none.stderr()).toContain("then give each agent an execute key")
    const adminKey = `sb_${"k".repeat(43)}`
    for (let boot = 0; boot < 2; boot++) {
      const server = await spawnServe(["--db", db, "--require-key"], { env: { SWITCHBOARD_ADMIN_KEY: adminKey } })
      try {
        expect(server.stderr().includes("stored $SWITCHBOARD_ADMIN_KEY as an admin key"), server.stderr()).toBe(
          boot === 0,
        )
        const keys = await fetch(`${server.url}/v1/keys`, { headers: { authorization: `Bearer ${adminKey}` } })
        expect(keys.status).toBe(200)
        expect(
          ((await keys.json()) as any).keys.map((k: { name: string; scope: string }) => [k.name, k.scope]),
        ).toEqual([["admin (SWITCHBOARD_ADMIN_KEY)", "admin"]])
      } finally {
        await server.stop()
      }
    }
    const bad = await runCli(["serve", "--db", db, "--port", "0"], { env: { SWITCHBOARD_ADMIN_KEY: "sb_short" } })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain("SWITCHBOARD_ADMIN_KEY must be sb_ followed by at least 32 base64url characters")
  } finally {
    dir.remove()
  }
}, 90_000)

it("run prints the whole result, however long, to a file or a pipe; --model-text the cut a model sees, pointing at executions output", async () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "run.db"))
    const script = join(dir.dir, "big.ts")
    writeFileSync(
      script,
      'return Array.from({ length: 4000 }, (_, i) => "row " + i + " " + "y".repeat(50)).join("\\n")\n',
    )
    const whole = await runCli(["run", script, "--db", db])
    expect(whole.status, whole.stderr).toBe(0)
    const lines = whole.stdout.trimEnd().split("\n")
    expect(lines).toHaveLength(4000)
    expect(lines.at(-1)).toBe(`row 3999 ${"y".repeat(50)}`)
    const model = await runCli(["run", script, "--db", db, "--model-text"])
    expect(model.stdout.length).toBeLessThan(31_000)
    const note = model.stdout.trimEnd().split("\n").at(-1)!
    expect(note).toMatch(/^\[output truncated: showing \d+ of 4000 lines/)
    const id = /switchboard executions output (\S+) --db /.exec(note)?.[1]
    expect(id, note).toBeDefined()
    expect(note).not.toContain("read_output")
    // the pointer, as written, reads the rest
    const offset = Number(/--offset (\d+)/.exec(note)![1])
    const rest = await runCli(["executions", "output", id!, "--db", db, "--offset", String(offset), "--limit", "1"])
    expect(rest.stdout).toBe(`${offset}\trow ${offset} ${"y".repeat(50)}\n`)
  } finally {
    dir.remove()
  }
}, 60_000)

it("a run that fails names the script's line and column, as POST /v1/execute does", async () => {
  const dir = tempDir()
  try {
    const db = newCatalog(join(dir.dir, "err.db"))
    const script = join(dir.dir, "three.ts")
    writeFileSync(script, 'const a = 1\nconst b = 2\nthrow new Error("boom")\n')
    const failed = await runCli(["run", script, "--db", db])
    expect(failed.status).toBe(1)
    // (the first command on a new catalog also says it made its key file)
    expect(failed.stderr.endsWith(`\nerror (runtime_error) at ${script}:3:16: Error: boom\n`), failed.stderr).toBe(true)
    const fromStdin = await runCli(["run", "-", "--db", db], {
      input: 'const a = 1\nconst b = 2\nthrow new Error("boom")\n',
    })
    expect(fromStdin.stderr).toBe("error (runtime_error) at <stdin>:3:16: Error: boom\n")
    const server = await spawnServe(["--db", db])
    try {
      const api = await call(server.url, "POST", "/v1/execute", {
        code: 'const a = 1\nconst b = 2\nthrow new Error("boom")\n',
      })
      expect(api.body.error).toMatchObject({ line: 3, column: 16 })
    } finally {
      await server.stop()
    }
  } finally {
    dir.remove()
  }
}, 60_000)
