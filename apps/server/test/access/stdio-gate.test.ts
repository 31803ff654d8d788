/**
 * ARCHITECTURE.md: safety: a server without --allow-stdio starts no stdio source, whoever added it. Server A (with the flag)
 * adds a stdio source to a SQLite file; server B (without) on the same file lists its tools, but a call, a sync
 * and a lazy re-sync are refused with `source_disabled`, and the command never runs: it writes a marker file
 * as it starts, and that file stays absent. `switchboard run` and `switchboard mcp` are refused too. On SQLite
 * and on a shared Postgres.
 */
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTestDatabase } from "@switchboard/fixtures"
import { TEST_SECRET_KEY, startTestServer, tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import { cliArgs } from "../support/built-cli.js"
import { runCli } from "../support/run-cli.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

/** A stdio MCP server with one tool, `hello`, that appends its pid to $MARKER_FILE the moment it starts. */
const MARKED_SERVER = `
require("node:fs").appendFileSync(process.env.MARKER_FILE, process.pid + "\\n")
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n")
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined) return
  if (m.method === "initialize") return send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "marked", version: "1" } } })
  if (m.method === "tools/list") return send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "hello", description: "says hello", inputSchema: { type: "object" } }] } })
  send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "hello" }] } })
})
process.stdin.on("end", () => process.exit(0))
`

describe.each<DatabaseKind>(["sqlite", "postgres"])("the stdio gate holds when a source runs (%s catalog)", (kind) => {
  const dir = tempDir()
  const marker = join(dir.dir, "started")
  let dbPath = join(dir.dir, "catalog.db")
  let dropDatabase = async () => {}
  let b: TestServer

  beforeAll(async () => {
    if (kind === "postgres") {
      const database = await createTestDatabase("switchboard_stdio_gate")
      dbPath = database.url
      dropDatabase = database.drop
    }
    const a = await startTestServer({ dbPath, keepDb: true, allowStdio: true, secretKey: TEST_SECRET_KEY })
    try {
      const added = await a.request("POST", "/v1/sources", {
        namespace: "marked",
        kind: "mcp",
        transport: {
          type: "stdio",
          command: process.execPath,
          args: ["-e", MARKED_SERVER],
          env: { MARKER_FILE: marker },
        },
      })
      expect(added.status, JSON.stringify(added.body)).toBe(201)
      expect((await a.execute(`return (await tools.marked.hello({})).data`)).result).toBe("hello")
    } finally {
      await a.stop()
    }
    expect(readFileSync(marker, "utf8").trim().split("\n")).toHaveLength(1) // the fixture does mark its start
    rmSync(marker)
    // a TTL of 0: every use of the source would re-sync it first, the lazy path included
    b = await startTestServer({ dbPath, keepDb: true, syncTtlMs: 0, secretKey: TEST_SECRET_KEY })
  }, 60_000)
  afterAll(async () => {
    await b?.stop()
    await dropDatabase()
    dir.remove()
  })

  it("listing the catalog still works", async () => {
    const tools = await b.request("GET", "/v1/tools?namespace=marked")
    expect(tools.status).toBe(200)
    expect(tools.body.tools.map((t: { path: string }) => t.path)).toEqual(["marked.hello"])
    const sources = await b.request("GET", "/v1/sources")
    expect(sources.body.sources).toMatchObject([{ namespace: "marked", toolCount: 1, syncError: null }])
    expect(existsSync(marker)).toBe(false)
  })

  it("a tool call is ok: false with source_disabled and a message that says how to enable it", async () => {
    const run = await b.execute(`return await tools.marked.hello({})`)
    expect(run.ok).toBe(true)
    expect(run.result).toEqual({
      ok: false,
      error: {
        code: "source_disabled",
        message:
          "stdio sources run a command on this host and are disabled on this server; start it with --allow-stdio to enable them",
      },
    })
    expect(existsSync(marker)).toBe(false)
  })

  it("a sync is refused with 403 source_disabled, and records no sync error for the servers that may run it", async () => {
    const synced = await b.request("POST", "/v1/sources/marked/sync")
    expect(synced.status).toBe(403)
    expect(synced.body.error.code).toBe("source_disabled")
    expect(synced.body.error.message).toMatch(/--allow-stdio/)
    expect((await b.request("GET", "/v1/sources")).body.sources[0].syncError).toBeNull()
    expect(existsSync(marker)).toBe(false)
  })

  it("adding a stdio source is refused with the same code", async () => {
    const added = await b.request("POST", "/v1/sources", {
      namespace: "other",
      kind: "mcp",
      transport: {
        type: "stdio",
        command: process.execPath,
        args: ["-e", MARKED_SERVER],
        env: { MARKER_FILE: marker },
      },
    })
    expect(added.status).toBe(403)
    expect(added.body.error.code).toBe("source_disabled")
    expect(existsSync(marker)).toBe(false)
  })

  it("switchboard run refuses it too", async () => {
    const run = await runCli(["run", "-", "--db", dbPath], {
      input: "const r = await tools.marked.hello({}); return r.ok ? 'ran' : r.error.code",
      // the key servers A and B used (a Postgres catalog needs one; a SQLite one would make a key file)
      env: { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY },
    })
    expect(run.stdout, run.stderr).toBe("source_disabled\n")
    expect(existsSync(marker)).toBe(false)
  }, 60_000)

  it("switchboard mcp refuses it too: the execute tool's result carries source_disabled", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(["mcp", "--db", dbPath]),
      stderr: "pipe",
      env: { ...(process.env as Record<string, string>), SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY },
    })
    const client = new Client({ name: "stdio-gate-test", version: "1" })
    await client.connect(transport)
    try {
      const result = await client.callTool({
        name: "execute",
        arguments: { code: "const r = await tools.marked.hello({}); return r.ok ? 'ran' : r.error.code" },
      })
      expect(result.content).toEqual([{ type: "text", text: "source_disabled" }])
    } finally {
      await client.close()
    }
    expect(existsSync(marker)).toBe(false)
  }, 60_000)
})

it("switchboard demo runs its own stdio source and no other (it allowed every stdio command)", async () => {
  const dir = tempDir()
  const marker = join(dir.dir, "started")
  const demo = await spawnServe(["--db", join(dir.dir, "demo.db")], { command: "demo" })
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${demo.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    const refused = await post("/v1/sources", {
      namespace: "other",
      kind: "mcp",
      transport: {
        type: "stdio",
        command: process.execPath,
        args: ["-e", MARKED_SERVER],
        env: { MARKER_FILE: marker },
      },
    })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("source_disabled")
    expect(existsSync(marker)).toBe(false)
    const executed = await post("/v1/execute", { code: "return (await tools.demo.add({ a: 2, b: 3 })).data" })
    expect(((await executed.json()) as { result: unknown }).result).toEqual({ sum: 5 })
  } finally {
    await demo.stop()
    dir.remove()
  }
}, 90_000)
