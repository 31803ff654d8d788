/**
 * A stdio source's relative paths (issue 25 §3), with the built CLI in real folders: a source added from one folder
 * with a relative path is called from another (by `call` and by `switchboard mcp`, as an MCP client runs it); a
 * path that is not there is refused, naming it; and a source whose file went away after it was added says so in
 * its status. The demo's MCP server (dist/demo-server.mjs), copied into a scratch project, is the source.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtDir, cliArgs } from "../support/built-cli.js"
import { startTestServer, tempDir } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

const scratch = tempDir()
const project = join(scratch.dir, "project")
const elsewhere = join(scratch.dir, "elsewhere")
const server = join(project, "srv", "demo-server.mjs")

beforeAll(() => {
  mkdirSync(join(project, "srv"), { recursive: true })
  mkdirSync(elsewhere)
  copyFileSync(join(builtDir, "demo-server.mjs"), server)
})
afterAll(() => scratch.remove())

/** a fresh local catalog, made by `switchboard init` */
const newCatalog = async (name: string) => {
  const db = join(scratch.dir, `${name}.db`)
  const made = await runCli(["init", "--db", db])
  expect(made.status, made.stderr).toBe(0)
  return db
}

const sourcesOf = async (db: string) => {
  const listed = await runCli(["sources", "list", "--db", db, "--json"])
  expect(listed.status, listed.stderr).toBe(0)
  return JSON.parse(listed.stdout).sources as {
    namespace: string
    status: string
    syncError: string | null
    config: { transport: { command: string; args: string[] } }
  }[]
}

describe("the local catalog", () => {
  it("a source added with a relative path from one folder runs from another, by call and by switchboard mcp", async () => {
    const db = await newCatalog("relative")
    const added = await runCli(
      ["sources", "add", "todo", "--db", db, "--allow-stdio", "--stdio", "node", "srv/demo-server.mjs"],
      { cwd: project },
    )
    expect(added.status, added.stderr).toBe(0)
    const [source] = await sourcesOf(db)
    expect(source!.config.transport).toMatchObject({ command: "node", args: [server] })

    const called = await runCli(["call", "todo.greet", '{"name":"Ada"}', "--db", db, "--allow-stdio"], {
      cwd: elsewhere,
    })
    expect(called.stderr).toBe("")
    expect(called.stdout).toMatch(/^Hello, Ada!/)

    const client = new Client({ name: "stdio-paths-test", version: "1.0.0" })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: cliArgs(["mcp", "--db", db, "--allow-stdio"]),
        cwd: elsewhere,
        stderr: "ignore",
      }),
    )
    try {
      const result = await client.callTool({
        name: "execute",
        arguments: { code: 'return (await tools.todo.greet({ name: "Grace" })).data' },
      })
      expect(JSON.stringify(result.content)).toMatch(/Hello, Grace!/)
    } finally {
      await client.close()
    }
  }, 60_000)

  it("a command or script that is not there is refused, named, and nothing is stored", async () => {
    const db = await newCatalog("missing")
    const add = (...command: string[]) =>
      runCli(["sources", "add", "todo", "--db", db, "--allow-stdio", "--stdio", ...command], { cwd: project })

    const noCommand = await add("./bin/no-server")
    expect(noCommand.status).toBe(1)
    expect(noCommand.stderr).toContain(`transport.command: ${join(project, "bin/no-server")} does not exist`)

    const noScript = await add("node", "missing.js")
    expect(noScript.status).toBe(1)
    expect(noScript.stderr).toContain(`transport.args[0]: ${join(project, "missing.js")} does not exist`)

    const noProgram = await add("no-such-program-here", "srv/demo-server.mjs")
    expect(noProgram.status).toBe(1)
    expect(noProgram.stderr).toContain(`"no-such-program-here" is not a program on this host's PATH`)

    expect(await sourcesOf(db)).toEqual([])
  }, 60_000)

  it("a source whose script went away after it was added shows error, with the reason, once a call fails", async () => {
    const db = await newCatalog("removed")
    const script = join(project, "srv", "gone.mjs")
    copyFileSync(server, script)
    const added = await runCli(["sources", "add", "gone", "--db", db, "--allow-stdio", "--stdio", "node", script])
    expect(added.status, added.stderr).toBe(0)
    renameSync(script, `${script}.moved`)

    const called = await runCli(["call", "gone.greet", '{"name":"Ada"}', "--db", db, "--allow-stdio"])
    expect(called.status).toBe(1)
    const [failed] = await sourcesOf(db)
    expect(failed!.status).toBe("error")
    expect(failed!.syncError).toMatch(/Cannot find module/)
    const table = await runCli(["sources", "list", "--db", db])
    expect(table.stdout).toMatch(/gone\s+mcp\s+error\s+4\s.*Cannot find module/)

    // back in place, the next use syncs it again and it is ready
    renameSync(`${script}.moved`, script)
    const again = await runCli(["call", "gone.greet", '{"name":"Ada"}', "--db", db, "--allow-stdio"])
    expect(again.stdout, again.stderr).toMatch(/^Hello, Ada!/)
    expect((await sourcesOf(db)).map((s) => [s.status, s.syncError])).toEqual([["ready", null]])
  }, 60_000)
})

describe("a running server", () => {
  let running: TestServer
  beforeAll(async () => {
    running = await startTestServer({ allowStdio: true })
  })
  afterAll(() => running.stop())

  it("sources add --url sends the path made absolute in the folder the command ran in", async () => {
    // the server runs in another folder: a relative path would name a file there
    expect(existsSync(join(process.cwd(), "srv/demo-server.mjs"))).toBe(false)
    const added = await runCli(
      ["sources", "add", "remote", "--url", running.url, "--stdio", "node", "./srv/demo-server.mjs"],
      { cwd: project },
    )
    expect(added.status, added.stderr).toBe(0)
    const listed = await running.request("GET", "/v1/sources")
    const remote = listed.body.sources.find((s: { namespace: string }) => s.namespace === "remote")
    expect(remote.config.transport.args).toEqual([server])
  }, 60_000)

  it("POST /v1/sources with a command or script that is not there is 400, naming it", async () => {
    const post = (transport: Record<string, unknown>) =>
      running.request("POST", "/v1/sources", {
        namespace: "ghost",
        kind: "mcp",
        transport: { type: "stdio", ...transport },
      })
    const cases: [Record<string, unknown>, string][] = [
      [{ command: "/nonexistent/mcp-server" }, "transport.command: /nonexistent/mcp-server does not exist"],
      [
        { command: "no-such-program-here" },
        `transport.command: "no-such-program-here" is not a program on this host's PATH`,
      ],
      [
        { command: "node", args: [join(project, "nope.mjs")] },
        `transport.args[0]: ${join(project, "nope.mjs")} does not exist`,
      ],
    ]
    for (const [transport, message] of cases) {
      const answer = await post(transport)
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      expect(answer.body.error).toEqual({ code: "invalid_request", message })
    }
    const sources = (await running.request("GET", "/v1/sources")).body.sources
    expect(sources.map((s: { namespace: string }) => s.namespace)).not.toContain("ghost")
  })

  it("GET /v1/sources shows error, with the reason, for a source whose command can no longer start", async () => {
    const script = join(project, "srv", "served.mjs")
    copyFileSync(server, script)
    const dbPath = join(scratch.dir, "served.db")
    const first = await startTestServer({ allowStdio: true, dbPath })
    const added = await first.request("POST", "/v1/sources", {
      namespace: "served",
      kind: "mcp",
      transport: { type: "stdio", command: "node", args: [script] },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    await first.stop()
    renameSync(script, `${script}.moved`)

    // a server started later on the catalog: the script is no longer there
    const later = await startTestServer({ allowStdio: true, dbPath })
    try {
      const failed = await later.execute('return await tools.served.greet({ name: "Ada" })')
      expect(failed.result).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } })
      const [shown] = (await later.request("GET", "/v1/sources")).body.sources
      expect(shown).toMatchObject({ status: "error", syncError: expect.stringMatching(/Cannot find module/) })
    } finally {
      await later.stop()
      renameSync(`${script}.moved`, script)
    }
  }, 60_000)
})

it("a config file's relative paths are taken from the file's folder, wherever the server starts", async () => {
  const file = join(project, "switchboard.config.json")
  writeFileSync(
    file,
    JSON.stringify({
      server: { allowStdio: true },
      sources: [
        {
          namespace: "todo",
          kind: "mcp",
          transport: { type: "stdio", command: "node", args: ["srv/demo-server.mjs"] },
        },
      ],
    }),
  )
  // the server's working directory is this package's, not the file's folder
  const serving = await spawnServe(["--config", file, "--db", join(scratch.dir, "from-file.db")])
  try {
    const { sources } = (await (await fetch(`${serving.url}/v1/sources`)).json()) as { sources: any[] }
    expect(sources.map((s) => [s.namespace, s.status, s.config.transport.args])).toEqual([["todo", "ready", [server]]])
  } finally {
    await serving.stop()
  }
}, 60_000)
