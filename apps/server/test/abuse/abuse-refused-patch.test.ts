/**
 * Issue 30, finding 2: a PATCH this server refuses changes nothing, so a sibling server on the same catalog that
 * would allow it never runs it. Three `switchboard serve` processes on one catalog (a SQLite file, then a
 * Postgres database): A on loopback with --allow-stdio, B on loopback without it, W on 0.0.0.0 (which refuses
 * private addresses). B's PATCH of a stdio source's arguments is refused with `source_disabled`, and A, which
 * may run stdio sources, still runs the stored ones: the new arguments' marker file never appears. W's PATCH of
 * an http source's URL to another loopback server is refused with `private_address`, and A (loopback, which
 * reaches private addresses) never reaches that server.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTestDatabase, echoEnvServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { TEST_SECRET_KEY, tempDir } from "../support/helpers.js"
import type { DatabaseKind } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

/** the echo-env MCP server, which first writes the file named by its last argument, when it has one */
const markingArgs = (marker?: string) => [
  "-e",
  `if (process.argv[1]) require("node:fs").writeFileSync(process.argv[1], "started");${echoEnvServerScript}`,
  ...(marker ? [marker] : []),
]

describe.each<DatabaseKind>(["sqlite", "postgres"])("a refused PATCH on a shared %s catalog", (kind) => {
  const dir = tempDir()
  const marker = join(dir.dir, "patched-args-ran")
  const env = { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY }
  let db = join(dir.dir, "catalog.db")
  let dropDatabase = async () => {}
  let a: ServeProcess
  let b: ServeProcess
  let w: ServeProcess
  let wKey: string
  let upstream: EchoHeadersServer
  let canary: EchoHeadersServer
  const wUrl = () => w.url.replace("0.0.0.0", "127.0.0.1")

  beforeAll(async () => {
    if (kind === "postgres") {
      const database = await createTestDatabase("switchboard_refused_patch")
      db = database.url
      dropDatabase = database.drop
    }
    ;[upstream, canary] = await Promise.all([startEchoHeadersServer(), startEchoHeadersServer()])
    a = await spawnServe(["--db", db, "--allow-stdio"], { env })
    ;[b, w] = await Promise.all([
      spawnServe(["--db", db], { env }),
      spawnServe(["--db", db, "--host", "0.0.0.0"], { env }),
    ])
    wKey = (await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db], { env })).stdout.trim()
    const stdio = { type: "stdio", command: process.execPath, args: markingArgs(), env: { ECHO_A: "a-value" } }
    expect(
      (await call(a.url, "POST", "/v1/sources", { namespace: "envs", kind: "mcp", transport: stdio })).status,
    ).toBe(201)
    const http = { type: "http", url: upstream.url, headers: { authorization: "Bearer up-token-12345678" } }
    expect((await call(a.url, "POST", "/v1/sources", { namespace: "hdrs", kind: "mcp", transport: http })).status).toBe(
      201,
    )
  }, 90_000)
  afterAll(async () => {
    await Promise.all([a, b, w].map((server) => server?.stop()))
    await Promise.all([upstream?.close(), canary?.close()])
    await dropDatabase()
    dir.remove()
  })

  it("B (no --allow-stdio) refuses new arguments with source_disabled; A never runs them", async () => {
    const patched = await call(b.url, "PATCH", "/v1/sources/envs", { transport: { args: markingArgs(marker) } })
    expect(patched.status, JSON.stringify(patched.body)).toBe(403)
    expect(patched.body.error.code).toBe("source_disabled")
    const listed = (await call(a.url, "GET", "/v1/sources")).body.sources.find(
      (s: { namespace: string }) => s.namespace === "envs",
    )
    expect(listed.config.transport.args).toEqual(markingArgs())
    expect((await call(a.url, "POST", "/v1/sources/envs/sync")).status).toBe(200)
    // the server echoes its ECHO_ variables (their values scrubbed, as secrets)
    const run = await call(a.url, "POST", "/v1/execute", {
      code: "return Object.keys((await tools.envs.echo({})).data.env)",
    })
    expect(run.body.result).toEqual(["ECHO_A"])
    expect(existsSync(marker)).toBe(false)
  })

  it("W (on 0.0.0.0) refuses a private URL with private_address; A never reaches it", async () => {
    const patched = await call(wUrl(), "PATCH", "/v1/sources/hdrs", { transport: { url: canary.url } }, wKey)
    expect(patched.status, JSON.stringify(patched.body)).toBe(403)
    expect(patched.body.error.code).toBe("private_address")
    expect((await call(a.url, "POST", "/v1/sources/hdrs/sync")).status).toBe(200)
    const run = await call(a.url, "POST", "/v1/execute", { code: "return (await tools.hdrs.echo({})).ok" })
    expect(run.body.result).toBe(true)
    expect(canary.received).toEqual([])
    const listed = (await call(a.url, "GET", "/v1/sources")).body.sources.find(
      (s: { namespace: string }) => s.namespace === "hdrs",
    )
    expect(listed.config.transport.url).toBe(upstream.url)
  })
})
