/**
 * The catalog commands (`sources`, `describe`, `call`, `executions`), the built CLI, one suite run against both
 * places a catalog can be: a local SQLite file (`--db`, the default) and a running server (`--url`, with keys on and
 * an admin key in SWITCHBOARD_KEY). Real MCP servers: the contract fixture over streamable HTTP (in this process)
 * and the demo server over stdio. The cases run in order, each on what the one before left.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Policy from "@switchboard/core/policy"
import { contractToolNames, startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { builtDir } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"
import type { RunCliOptions } from "../support/run-cli.js"

interface Target {
  /** `switchboard <args>` against this catalog */
  cli: (args: string[], options?: RunCliOptions) => ReturnType<typeof runCli>
  db: string
}

/** the flags that name the catalog go before --stdio: what follows it is the source's command line */
const withFlags = (args: string[], flags: string[]) => {
  const cut = args.indexOf("--stdio")
  return cut < 0 ? [...args, ...flags] : [...args.slice(0, cut), ...flags, ...args.slice(cut)]
}

/** the commands that may start a stdio source take --allow-stdio locally (a server has its own) */
const startsSources = (args: string[]) => args[0] === "call" || (args[0] === "sources" && args[1] !== "list")

const local = (db: string): Target => ({
  db,
  cli: (args, options) =>
    runCli(withFlags(args, ["--db", db, ...(startsSources(args) ? ["--allow-stdio"] : [])]), options),
})

const remote = (db: string, url: string, key: string): Target => ({
  db,
  cli: (args, options) =>
    runCli(withFlags(args, ["--url", url]), { ...options, env: { SWITCHBOARD_KEY: key, ...options?.env } }),
})

/** the newest execution's id and stored text, read from the file beside the command */
const newestExecution = (db: string) => {
  const sqlite = new Database(db, { readonly: true })
  try {
    return sqlite.prepare("select id, result_text as text from executions order by id desc limit 1").get() as {
      id: string
      text: string
    }
  } finally {
    sqlite.close()
  }
}

const json = (text: string) => JSON.parse(text) as any

/** the contract fixture's tools, listed 5 to a page */
const contractTools = contractToolNames.length
const contractPages = Math.ceil(contractTools / 5)

let upstream: ContractHttpServer
beforeAll(async () => {
  upstream = await startContractHttpServer()
})
afterAll(() => upstream?.close())

describe.each(["local", "remote"] as const)(
  "the catalog commands, %s (--db, or --url with SWITCHBOARD_KEY)",
  (kind) => {
    const dir = tempDir()
    const db = join(dir.dir, "catalog.db")
    let server: ServeProcess | undefined
    let target: Target
    beforeAll(async () => {
      openSqlite(db).close()
      if (kind === "local") target = local(db)
      else {
        const admin = await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db])
        server = await spawnServe(["--db", db, "--require-key", "--allow-stdio"])
        target = remote(db, server.url, admin.stdout.trim())
      }
    }, 60_000)
    afterAll(async () => {
      await server?.stop()
      dir.remove()
    })

    it("sources add takes a POST /v1/sources body from a file, shows the sync's pages on stderr, and says what it added", async () => {
      const file = join(dir.dir, "contract.json")
      writeFileSync(
        file,
        JSON.stringify({ namespace: "contract", kind: "mcp", transport: { type: "http", url: upstream.url } }),
      )
      const added = await target.cli(["sources", "add", `@${file}`])
      expect(added.stderr, added.stderr).toBe(
        kind === "local" ? `syncing contract: ${contractPages} pages of tools/list read, ${contractTools} tools\n` : "",
      )
      expect(added.stdout).toBe(`added contract: ${contractTools} tools\n`)
      expect(added.status).toBe(0)
    }, 60_000)

    it("sources add <namespace> --stdio <command> [args...] and --http <url> --header make the body; --json prints the API's answer", async () => {
      const demo = await target.cli([
        "sources",
        "add",
        "demo",
        "--env",
        "DEMO_TOKEN=t0ps3cret",
        "--stdio",
        "node",
        join(builtDir, "demo-server.mjs"),
      ])
      expect(demo.stdout, demo.stderr).toBe("added demo: 4 tools\n")
      const web = await target.cli([
        "sources",
        "add",
        "web",
        "--json",
        "--http",
        upstream.url,
        "--header",
        "x-token: abcdefgh12",
      ])
      expect(web.status, web.stderr).toBe(0)
      expect(json(web.stdout).source).toMatchObject({
        namespace: "web",
        status: "ready",
        toolCount: contractTools,
        config: { transport: { type: "http", headers: { "x-token": "<redacted>" } } },
      })
    }, 60_000)

    it("sources add: a body the API refuses is its error, exit 1; one that is not a JSON object, exit 2", async () => {
      const refused = await target.cli(["sources", "add", "-"], { input: '{"namespace":"Not Valid","kind":"mcp"}' })
      expect(refused.status).toBe(1)
      expect(refused.stderr).toMatch(/^switchboard: .*namespace.* \(invalid_request\)\n$/)
      const taken = await target.cli(["sources", "add", "-"], {
        input: JSON.stringify({ namespace: "web", kind: "mcp", transport: { type: "http", url: upstream.url } }),
      })
      expect(taken.stderr).toBe('switchboard: a source with namespace "web" already exists (conflict)\n')
      expect(taken.status).toBe(1)
      const notJson = await target.cli(["sources", "add", "{namespace"])
      expect(notJson.status).toBe(2)
      expect(notJson.stderr).toContain("switchboard: the source must be a JSON object: ")
    }, 60_000)

    it("sources list: a table by default, the API's JSON with --json (secrets redacted)", async () => {
      const listed = await target.cli(["sources", "list"])
      expect(listed.status, listed.stderr).toBe(0)
      const [header, ...rows] = listed.stdout.trimEnd().split("\n")
      expect(header!.split(/\s{2,}/)).toEqual(["NAMESPACE", "KIND", "STATUS", "TOOLS", "LAST SYNCED", "SYNC ERROR"])
      expect(rows.map((row) => row.split(/\s{2,}/).slice(0, 4))).toEqual([
        ["contract", "mcp", "ready", String(contractTools)],
        ["demo", "mcp", "ready", "4"],
        ["web", "mcp", "ready", String(contractTools)],
      ])
      const { sources } = json((await target.cli(["sources", "list", "--json"])).stdout)
      const demo = sources.find((s: { namespace: string }) => s.namespace === "demo")
      expect(demo.config.transport).toMatchObject({ type: "stdio", command: "node", env: { DEMO_TOKEN: "<redacted>" } })
      expect(JSON.stringify(sources)).not.toContain("t0ps3cret")
      expect(JSON.stringify(sources)).not.toContain("abcdefgh12")
    }, 60_000)

    it("sources sync re-syncs one source; sources remove takes it and its tools away; an unknown one is not_found", async () => {
      const synced = await target.cli(["sources", "sync", "contract"])
      expect(synced.stdout, synced.stderr).toBe(`synced contract: ${contractTools} tools\n`)
      expect((await target.cli(["sources", "remove", "web"])).stdout).toBe("removed web and its tools\n")
      const gone = await target.cli(["sources", "sync", "web"])
      expect(gone.status).toBe(1)
      expect(gone.stderr).toBe('switchboard: no source with namespace "web" (not_found)\n')
      const { sources } = json((await target.cli(["sources", "list", "--json"])).stdout)
      expect(sources.map((s: { namespace: string }) => s.namespace)).toEqual(["contract", "demo"])
    }, 60_000)

    it("tools lists this catalog's tools, one line each (--long the whole description), --limit, --json as GET /v1/tools", async () => {
      const listed = await target.cli(["tools", "--namespace", "contract", "--limit", "3"])
      expect(listed.status, listed.stderr).toBe(0)
      const lines = listed.stdout.trimEnd().split("\n")
      expect(lines).toHaveLength(3)
      for (const line of lines) expect(line).toMatch(/^contract\.\S+\t[^\n]*$/)
      const found = json((await target.cli(["tools", "--json", "--query", "echo", "--limit", "1"])).stdout)
      expect(found.tools).toEqual([
        expect.objectContaining({ path: "contract.echo", namespace: "contract", name: "echo" }),
      ])
      const long = await target.cli(["tools", "--namespace", "demo", "--long"])
      expect(long.stdout).toContain("demo.add\tAdd two numbers.\n")
      const badLimit = await target.cli(["tools", "--limit", "0"])
      expect(badLimit.status).toBe(2)
      expect(badLimit.stderr).toContain('--limit must be a whole number from 1 to 1000 (got "0")')
    }, 60_000)

    it("run runs a script on this catalog and prints its result; --json as POST /v1/execute answers", async () => {
      const script = 'const r = await tools.contract.echo({ message: "ran" }); return r.ok ? "ran ok" : r.error.message'
      const ran = await target.cli(["run", "-"], { input: script })
      expect(ran.stderr).toBe("")
      expect(ran.stdout).toBe("ran ok\n")
      expect(ran.status).toBe(0)
      const answer = json((await target.cli(["run", "-", "--json"], { input: "return 1 + 1" })).stdout)
      expect(answer).toMatchObject({ ok: true, result: 2, text: "2", stored: true })
    }, 60_000)

    it("describe prints the TypeScript a model sees; --json the whole answer; a path with no tool exits 1 naming it", async () => {
      const described = await target.cli(["describe", "contract.echo", "demo.add"])
      expect(described.status, described.stderr).toBe(0)
      expect(described.stdout).toContain("type ToolResult<T = unknown> =")
      expect(described.stdout).toContain("echo(args: Contract_Echo_Input): Promise<ToolResult<")
      expect(described.stdout).toContain("add(args: Demo_Add_Input): Promise<ToolResult<Demo_Add_Data>>")
      const asJson = json((await target.cli(["describe", "demo.add", "--json"])).stdout)
      // each tool's policy as the server decides it; here none but the default, which allows demo.add
      expect(asJson.tools).toEqual([
        {
          path: "demo.add",
          description: "Add two numbers.",
          outputSource: "declared",
          policy: { action: "allow", reason: Policy.DEFAULT_ALLOW_REASON },
        },
      ])
      expect(asJson.missing).toEqual([])
      const missing = await target.cli(["describe", "demo.add", "demo.nope"])
      expect(missing.status).toBe(1)
      expect(missing.stderr).toBe('switchboard: no tool "demo.nope" (not_found)\n')
      expect(missing.stdout).toContain("add(args: Demo_Add_Input)")
    }, 60_000)

    it("call prints a text result verbatim (a newline after), data as JSON, --json the whole union", async () => {
      const message = 'a "quoted"\ttab, a __proto__, ${not code}\nand a second line'
      const text = await target.cli(["call", "contract.echo", JSON.stringify({ message })])
      expect(text.stderr).toBe("")
      expect(text.stdout).toBe(`${message}\n`)
      expect(text.status).toBe(0)
      const sum = await target.cli(["call", "demo.add", "-"], { input: '{"a":2,"b":3}' })
      expect(sum.stdout, sum.stderr).toBe('{"sum":5}\n')
      const union = await target.cli(["call", "contract.with_meta", "--json"])
      expect(json(union.stdout)).toMatchObject({ ok: true, meta: expect.anything() })
      // a name that is not an identifier, and no arguments given
      expect((await target.cli(["call", "contract.get-sum", '{"a":1,"b":2}'])).stdout).toBe("3\n")
    }, 60_000)

    it("call: a failed call is its code and message on stderr, exit 1; bad arguments exit 2 saying what was wrong", async () => {
      const failed = await target.cli(["call", "contract.fails"])
      expect(failed.status).toBe(1)
      expect(failed.stdout).toBe("")
      expect(failed.stderr).toMatch(/^error \(upstream_error\): .+/)
      const asJson = await target.cli(["call", "contract.fails", "--json"])
      expect(asJson.status).toBe(1)
      expect(json(asJson.stdout)).toMatchObject({ ok: false, error: { code: "upstream_error" } })
      const unknown = await target.cli(["call", "contract.nope"])
      expect(unknown.status).toBe(1)
      expect(unknown.stderr).toMatch(/^error \(tool_not_found\): /)
      for (const [args, says] of [
        ['{"a":', "call's arguments must be a JSON object: "],
        ["[1,2]", "call's arguments must be a JSON object, not an array"],
        ["42", "call's arguments must be a JSON object, not a number"],
      ] as const) {
        const bad = await target.cli(["call", "demo.add", args])
        expect(bad.status, args).toBe(2)
        expect(bad.stderr, args).toContain(`switchboard: ${says}`)
      }
      const noPath = await target.cli(["call", "add"])
      expect(noPath.status).toBe(2)
      expect(noPath.stderr).toContain('call needs a tool path, namespace.tool, such as demo.add (got "add")')
    }, 60_000)

    it("executions show: a summary and its tool calls; --json the stored record; an unknown id is not_found", async () => {
      await target.cli(["call", "contract.echo", '{"message":"shown"}'])
      const { id } = newestExecution(db)
      const shown = await target.cli(["executions", "show", id])
      expect(shown.status, shown.stderr).toBe(0)
      expect(shown.stdout).toMatch(new RegExp(`^id {10}${id}\nstatus {6}ok\n`))
      expect(shown.stdout).toContain('  return await tools["contract"]["echo"](JSON.parse(')
      expect(shown.stdout).toMatch(
        /tool calls:\nPATH +OK +ERROR +DURATION +DATA BYTES +STARTED\ncontract\.echo +ok +\d+ ms/,
      )
      const record = json((await target.cli(["executions", "show", id, "--json"])).stdout).execution
      expect(record).toMatchObject({
        id,
        status: "ok",
        toolCallCount: 1,
        calls: [{ toolPath: "contract.echo", ok: true }],
      })
      const unknown = await target.cli(["executions", "show", "nope"])
      expect(unknown.status).toBe(1)
      expect(unknown.stderr).toBe('switchboard: no execution "nope" (not_found)\n')
    }, 60_000)

    it("executions output: the stored text byte for byte; a page by line; the lines a pattern matches; --json their API answers", async () => {
      const script =
        'return Array.from({ length: 5 }, (_, i) => "line " + i + (i === 2 ? " \\u00e9\\u{1F600}" : "")).join("\\n")'
      expect((await runCli(["run", "-", "--db", db], { input: script })).status).toBe(0)
      const { id, text } = newestExecution(db)
      const whole = await target.cli(["executions", "output", id])
      expect(whole.stdout).toBe(text)
      expect(whole.stdout).toBe("line 0\nline 1\nline 2 é😀\nline 3\nline 4")
      const page = await target.cli(["executions", "output", id, "--offset", "1", "--limit", "2"])
      expect(page.stdout).toBe("1\tline 1\n2\tline 2 é😀\n")
      expect(page.stderr).toBe(`lines 1–2 of 5; next: switchboard executions output ${id} --offset 3\n`)
      expect(json((await target.cli(["executions", "output", id, "--limit", "1", "--json"])).stdout)).toEqual({
        executionId: id,
        offset: 0,
        charOffset: 0,
        lines: ["line 0"],
        totalLines: 5,
        nextOffset: 1,
      })
      expect((await target.cli(["executions", "output", id, "--grep", "[13]$"])).stdout).toBe("1\tline 1\n3\tline 3\n")
      const badPattern = await target.cli(["executions", "output", id, "--grep", "("])
      expect(badPattern.status).toBe(1)
      expect(badPattern.stderr).toMatch(/^switchboard: .*missing closing \).* \(invalid_request\)\n$/)
      const badLimit = await target.cli(["executions", "output", id, "--limit", "0"])
      expect(badLimit.status).toBe(2)
      expect(badLimit.stderr).toContain('--limit must be a whole number from 1 to 2000 (got "0")')
    }, 60_000)

    it("executions list: newest first, a page at a time (--limit, --before), --status filters; a table, or --json as GET /v1/executions", async () => {
      expect((await runCli(["run", "-", "--db", db], { input: "throw new Error('listed')" })).status).toBe(1)
      const all = json((await target.cli(["executions", "list", "--json"])).stdout)
      const ids: string[] = all.executions.map((e: { id: string }) => e.id)
      expect(ids.length).toBeGreaterThan(3)
      expect(ids).toEqual([...ids].sort().reverse())
      expect(all.executions[0]).toMatchObject({
        status: "error",
        errorCode: "runtime_error",
        toolCallCount: 0,
        resultChars: null,
        codePreview: "throw new Error('listed')",
      })
      expect(all.nextBefore).toBeUndefined()

      const first = await target.cli(["executions", "list", "--limit", "2"])
      expect(first.status, first.stderr).toBe(0)
      const [header, ...rows] = first.stdout.trimEnd().split("\n")
      expect(header!.split(/\s{2,}/)).toEqual(["ID", "STATUS", "STARTED", "DURATION", "CALLS", "RESULT", "KEY", "CODE"])
      expect(rows.map((row) => row.split(/\s{2,}/).slice(0, 2))).toEqual([
        [ids[0], "error (runtime_error)"],
        [ids[1], "ok"],
      ])
      expect(first.stderr).toBe(`more: switchboard executions list --limit 2 --before ${ids[1]}\n`)
      const next = json(
        (await target.cli(["executions", "list", "--limit", "2", "--before", ids[1]!, "--json"])).stdout,
      )
      expect(next.executions.map((e: { id: string }) => e.id)).toEqual(ids.slice(2, 4))

      const failed = json((await target.cli(["executions", "list", "--status", "error", "--json"])).stdout)
      expect(failed.executions.map((e: { id: string }) => e.id)).toEqual([ids[0]])
      const badStatus = await target.cli(["executions", "list", "--status", "failed"])
      expect(badStatus.status).toBe(2)
      expect(badStatus.stderr).toContain('--status must be ok, error or paused (got "failed")')
    }, 60_000)
  },
)

describe("against a running server only", () => {
  const dir = tempDir()
  const db = join(dir.dir, "catalog.db")
  let server: ServeProcess
  let readKey: string
  beforeAll(async () => {
    openSqlite(db).close()
    readKey = (await runCli(["keys", "create", "reader", "--scope", "read", "--db", db])).stdout.trim()
    server = await spawnServe(["--db", db, "--require-key"])
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    dir.remove()
  })

  it("the server's refusal is printed as it answered it: a read key cannot add a source (403), no key is 401 saying SWITCHBOARD_KEY is not set", async () => {
    const body = JSON.stringify({ namespace: "contract", kind: "mcp", transport: { type: "http", url: upstream.url } })
    const forbidden = await runCli(["sources", "add", body, "--url", server.url], { env: { SWITCHBOARD_KEY: readKey } })
    expect(forbidden.status).toBe(1)
    expect(forbidden.stderr).toBe('switchboard: this route needs the "admin" scope; this key has: read (forbidden)\n')
    // the read key lists, through $SWITCHBOARD_URL
    const listed = await runCli(["sources", "list"], { env: { SWITCHBOARD_KEY: readKey, SWITCHBOARD_URL: server.url } })
    expect(listed.stdout, listed.stderr).toBe("NAMESPACE  KIND  STATUS  TOOLS  LAST SYNCED  SYNC ERROR\n")
    const anonymous = await runCli(["sources", "list", "--url", server.url], { env: { SWITCHBOARD_KEY: undefined } })
    expect(anonymous.status).toBe(1)
    expect(anonymous.stderr).toMatch(
      /^switchboard: this server needs an API key: .* The CLI sends \$SWITCHBOARD_KEY, which is not set\. \(unauthorized\)\n$/,
    )
    const wrong = await runCli(["sources", "list", "--url", server.url], { env: { SWITCHBOARD_KEY: "sb_wrong" } })
    expect(wrong.stderr).toContain("The key in $SWITCHBOARD_KEY was refused. (unauthorized)")
  }, 60_000)

  it("run and tools use $SWITCHBOARD_URL as the other catalog commands do, sending $SWITCHBOARD_KEY; a local-only flag with a server is refused", async () => {
    const elsewhere = tempDir()
    try {
      const env = { SWITCHBOARD_URL: server.url, SWITCHBOARD_KEY: readKey, SWITCHBOARD_DB: undefined }
      // no catalog here: the server's is listed
      const tools = await runCli(["tools", "--json"], { cwd: elsewhere.dir, env })
      expect(tools.status, tools.stderr).toBe(0)
      expect(json(tools.stdout)).toEqual({ tools: [] })
      // a read key may not run a script: the server says so
      const run = await runCli(["run", "-"], { cwd: elsewhere.dir, env, input: "return 1" })
      expect(run.status).toBe(1)
      expect(run.stderr).toBe('switchboard: this route needs the "execute" scope; this key has: read (forbidden)\n')
      const tuned = await runCli(["run", "-", "--url", server.url, "--workers", "2"], { input: "return 1" })
      expect(tuned.status).toBe(2)
      expect(tuned.stderr).toContain("--workers: for a local catalog; a server applies its own settings")
    } finally {
      elsewhere.remove()
    }
  }, 60_000)

  it("a key without admin lists and reads only its own executions, through the server", async () => {
    expect((await runCli(["run", "-", "--db", db], { input: "return 1" })).status).toBe(0)
    const { id } = newestExecution(db)
    const env = { SWITCHBOARD_KEY: readKey }
    const listed = await runCli(["executions", "list", "--json", "--url", server.url], { env })
    expect(json(listed.stdout), listed.stderr).toEqual({ executions: [] })
    const shown = await runCli(["executions", "show", id, "--url", server.url], { env })
    expect(shown.status).toBe(1)
    expect(shown.stderr).toBe(`switchboard: no execution "${id}" (not_found)\n`)
    // the same catalog, opened locally, is read whole
    const local = json((await runCli(["executions", "list", "--json", "--db", db])).stdout)
    expect(local.executions.map((e: { id: string }) => e.id)).toEqual([id])
  }, 60_000)

  it("a server that does not answer is named, exit 1; --url with --db, or with --allow-stdio, or not an http URL, exits 2", async () => {
    const { freePort } = await import("@switchboard/fixtures")
    const closed = `http://127.0.0.1:${await freePort()}`
    const unreachable = await runCli(["describe", "demo.add", "--url", closed])
    expect(unreachable.status).toBe(1)
    expect(unreachable.stderr).toBe(`switchboard: no server answered at ${closed}: ECONNREFUSED (unreachable)\n`)
    for (const [args, says] of [
      [
        ["sources", "list", "--url", server.url, "--db", db],
        "give --url (a running server) or --db (a local catalog), not both",
      ],
      [["call", "demo.add", "--url", server.url, "--allow-stdio"], "--allow-stdio is for the local catalog"],
      [
        ["sources", "list", "--url", "localhost:4747"],
        '--url must be the server\'s http(s) URL, such as http://127.0.0.1:4747 (got "localhost:4747")',
      ],
    ] as const) {
      const refused = await runCli([...args])
      expect(refused.status, args.join(" ")).toBe(2)
      expect(refused.stderr, args.join(" ")).toContain(`switchboard: ${says}`)
    }
    // a key a header cannot carry (the README's "sb_…" pasted as it is) is named, not taken for an unreachable server
    const pasted = await runCli(["sources", "list", "--url", server.url], { env: { SWITCHBOARD_KEY: "sb_…" } })
    expect(pasted.status).toBe(2)
    expect(pasted.stderr).toContain("switchboard: $SWITCHBOARD_KEY is not an API key")
    // a --db given wins over $SWITCHBOARD_URL
    const local = await runCli(["sources", "list", "--db", db], { env: { SWITCHBOARD_URL: closed } })
    expect(local.status, local.stderr).toBe(0)
  }, 60_000)
})

it("locally, a stdio source is started only with --allow-stdio, as `run` does", async () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "catalog.db")
    openSqlite(db).close()
    const demo = ["sources", "add", "demo", "--db", db, "--stdio", "node", join(builtDir, "demo-server.mjs")]
    const refused = await runCli(demo)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(
      /^switchboard: stdio sources run a command on this host .*--allow-stdio.* \(source_disabled\)\n$/,
    )
    expect((await runCli(["sources", "add", "--allow-stdio", ...demo.slice(2)])).status).toBe(0)
    const call = await runCli(["call", "demo.greet", '{"name":"Ada"}', "--db", db])
    expect(call.stderr).toMatch(/^error \(source_disabled\): /)
    expect(call.status).toBe(1)
  } finally {
    dir.remove()
  }
}, 60_000)

it("a --header or --env without its separator is named, and its value is not echoed", async () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "catalog.db")
    openSqlite(db).close()
    for (const [flag, pair, named] of [
      ["--header", "Authorization=Bearer sk-live-SECRET", '"Authorization"'],
      ["--header", "Authorization Bearer sk-live-SECRET", '"Authorization"'],
      ["--header", ":sk-live-SECRET", "no name"],
      ["--env", "TOKEN:sk-live-SECRET", '"TOKEN"'],
    ] as const) {
      const args =
        flag === "--header" ? ["--http", "http://127.0.0.1:1/mcp", flag, pair] : [flag, pair, "--stdio", "node"]
      const run = await runCli(["sources", "add", "x", "--db", db, ...args])
      expect(run.status).toBe(2)
      expect(run.stderr).toContain(`${flag} takes "name${flag === "--header" ? ":" : "="}value"`)
      expect(run.stderr).toContain(named)
      expect(run.stderr).not.toContain("SECRET")
    }
  } finally {
    dir.remove()
  }
}, 60_000)
