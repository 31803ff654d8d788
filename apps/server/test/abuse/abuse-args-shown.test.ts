/**
 * Issue 30, finding 4: credentials in a stdio source's arguments, in six forms servers are configured with (a
 * Postgres URL with a password, `-H "X-Api-Key: …"`, `--pat ghp_…`, `-p …`, `--pass …`, a webhook URL with a
 * token), are sealed in the SQLite file, never shown (a read key sees no arguments at all, an admin sees them
 * redacted; the CLI's `sources list` likewise), scrubbed from a failing server's message and from the log, and
 * still reach the process as written, after a restart too. Against `switchboard serve --require-key` processes.
 */
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { echoEnvServerScript } from "@switchboard/fixtures"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

const SECRETS = {
  pgPassword: "PGPASS_4e5f6a7b",
  apiKey: "APIKEY_8c9d0e1f",
  pat: "ghp_PATSECRET0123456789abcdefghijk",
  short: "PSHORT_2a3b4c5d",
  long: "PLONG_6e7f8a9b",
  hook: "HOOKTOKEN1a2b3c4d",
}
const CREDENTIAL_ARGS = [
  `postgresql://app:${SECRETS.pgPassword}@db.internal:5432/app`,
  "-H",
  `X-Api-Key: ${SECRETS.apiKey}`,
  "--pat",
  SECRETS.pat,
  "-p",
  SECRETS.short,
  "--pass",
  SECRETS.long,
  `https://hooks.example.com/services/T0123ABCD/B0456EFGH/${SECRETS.hook}`,
]
/** what an admin is shown of them */
const SHOWN = [
  "postgresql://<redacted>:<redacted>@db.internal:5432/app",
  "-H",
  "<redacted>",
  "--pat",
  "<redacted>",
  "-p",
  "<redacted>",
  "--pass",
  "<redacted>",
  "https://hooks.example.com/services/<redacted>/<redacted>/<redacted>",
]

const dir = tempDir()
const db = join(dir.dir, "catalog.db")
const argvFile = join(dir.dir, "argv.json")
/** the echo-env MCP server, which first writes the arguments it was given to $ARGV_FILE */
const SCRIPT = `require("node:fs").writeFileSync(process.env.ARGV_FILE, JSON.stringify(process.argv.slice(1)));${echoEnvServerScript}`
let server: ServeProcess
let adminKey: string
let readKey: string

const expectNoSecretIn = (what: string, text: string) => {
  for (const secret of Object.values(SECRETS)) expect(text.includes(secret), `${what} holds ${secret}`).toBe(false)
}
const receivedArgs = () => JSON.parse(readFileSync(argvFile, "utf8"))

beforeAll(async () => {
  openSqlite(db).close()
  adminKey = (await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db])).stdout.trim()
  readKey = (await runCli(["keys", "create", "reader", "--scope", "read", "--db", db])).stdout.trim()
  server = await spawnServe(["--db", db, "--allow-stdio", "--require-key"])
  const added = await call(
    server.url,
    "POST",
    "/v1/sources",
    {
      namespace: "creds",
      kind: "mcp",
      transport: {
        type: "stdio",
        command: process.execPath,
        args: ["-e", SCRIPT, "--", ...CREDENTIAL_ARGS],
        env: { ARGV_FILE: argvFile },
      },
    },
    adminKey,
  )
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  expectNoSecretIn("the add's answer", JSON.stringify(added.body))
}, 60_000)
afterAll(async () => {
  await server?.stop()
  dir.remove()
})

it("the process receives the arguments as written", () => {
  expect(receivedArgs()).toEqual(CREDENTIAL_ARGS)
})

it("a read key's listing shows no arguments at all", async () => {
  const listed = await call(server.url, "GET", "/v1/sources", undefined, readKey)
  expect(listed.status).toBe(200)
  expectNoSecretIn("a read key's listing", JSON.stringify(listed.body))
  const [source] = listed.body.sources
  expect(source.config.transport).not.toHaveProperty("args")
  expect(source.config.transport).toMatchObject({
    type: "stdio",
    command: process.execPath,
    env: { ARGV_FILE: "<redacted>" },
  })
})

it("an admin's listing shows the arguments with each credential redacted", async () => {
  const listed = await call(server.url, "GET", "/v1/sources", undefined, adminKey)
  expectNoSecretIn("an admin's listing", JSON.stringify(listed.body))
  expect(listed.body.sources[0].config.transport.args).toEqual(["-e", SCRIPT, "--", ...SHOWN])
})

it("the CLI's sources list shows them as the API does: redacted on the local catalog, absent for a read key", async () => {
  const local = await runCli(["sources", "list", "--json", "--db", db])
  expect(local.status, local.stderr).toBe(0)
  expectNoSecretIn("sources list --db", local.stdout)
  expect(JSON.parse(local.stdout).sources[0].config.transport.args).toEqual(["-e", SCRIPT, "--", ...SHOWN])
  const remote = await runCli(["sources", "list", "--json", "--url", server.url], { env: { SWITCHBOARD_KEY: readKey } })
  expect(remote.status, remote.stderr).toBe(0)
  expectNoSecretIn("sources list --url", remote.stdout)
  expect(JSON.parse(remote.stdout).sources[0].config.transport).not.toHaveProperty("args")
})

it("the catalog file holds them sealed", () => {
  for (const file of [db, `${db}-wal`].filter(existsSync)) expectNoSecretIn(file, readFileSync(file, "latin1"))
})

it("a server that prints its arguments and dies: the 502 and the log name none of them", async () => {
  const dies = await call(
    server.url,
    "POST",
    "/v1/sources",
    {
      namespace: "dies",
      kind: "mcp",
      transport: {
        type: "stdio",
        command: process.execPath,
        args: [
          "-e",
          'console.error("started with " + process.argv.slice(1).join(" ")); process.exit(1)',
          "--",
          ...CREDENTIAL_ARGS,
        ],
      },
    },
    adminKey,
  )
  expect(dies.status).toBe(502)
  expect(dies.body.error.message).toContain("started with <redacted>")
  expectNoSecretIn("the 502", JSON.stringify(dies.body))
  expectNoSecretIn("the server's log", server.stderr())
})

it("after a restart, the arguments read back from the catalog reach the process as written", async () => {
  await server.stop()
  rmSync(argvFile)
  server = await spawnServe(["--db", db, "--allow-stdio", "--require-key"])
  const run = await call(
    server.url,
    "POST",
    "/v1/execute",
    { code: "return (await tools.creds.echo({})).ok" },
    adminKey,
  )
  expect(run.body.result).toBe(true)
  expect(receivedArgs()).toEqual(CREDENTIAL_ARGS)
  expectNoSecretIn("the server's log", server.stderr())
}, 60_000)
