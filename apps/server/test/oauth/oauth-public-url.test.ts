/**
 * `switchboard serve --public-url` (and `server.publicUrl` in the config file): a server behind a proxy builds the
 * OAuth callback it hands an authorization server, and the console's link in a paused answer, from the address
 * people reach it at, not from the loopback address the request came to. A URL that cannot be a base is refused
 * before anything starts.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { fixtureCommand, startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

const PUBLIC = "https://switchboard.example.com/tools"
let upstream: SdkAuthServer
const dir = tempDir()
beforeAll(async () => {
  upstream = await startSdkAuthServer()
})
afterAll(async () => {
  await upstream?.close()
  dir.remove()
})

const post = async (server: ServeProcess, path: string, body?: unknown) => {
  const answer = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: answer.status, body: (await answer.json()) as any }
}

/** the callback a login hands the authorization server, and the page a paused call links to */
const linksOf = async (server: ServeProcess) => {
  const added = await post(server, "/v1/sources", {
    namespace: "docs",
    kind: "mcp",
    transport: { type: "http", url: upstream.mcpUrl },
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const login = await post(server, "/v1/sources/docs/login")
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  const paused = await post(server, "/v1/execute", { code: "return await tools.ledger.write({ text: 'x' })" })
  expect(paused.status, JSON.stringify(paused.body)).toBe(202)
  return {
    callback: new URL(login.body.authorizationUrl).searchParams.get("redirect_uri"),
    page: paused.body.approval.url as string,
  }
}

const ledger = () => {
  const { command, args } = fixtureCommand("ledger-server")
  return { command, args, env: { LEDGER_FILE: join(dir.dir, "ledger.txt") } }
}

it("--public-url: the OAuth callback and the console's links are built from it", async () => {
  const config = join(dir.dir, "flag.config.json")
  writeFileSync(
    config,
    JSON.stringify({
      sources: [{ namespace: "ledger", kind: "mcp", transport: { type: "stdio", ...ledger() } }],
      policies: [{ pattern: "ledger.write", action: "require_approval" }],
    }),
  )
  const server = await spawnServe([
    "--db",
    join(dir.dir, "flag.db"),
    "--allow-stdio",
    "--config",
    config,
    "--public-url",
    `${PUBLIC}/`,
  ])
  try {
    const links = await linksOf(server)
    expect(links.callback).toBe(`${PUBLIC}/v1/oauth/callback`)
    expect(links.page.startsWith(`${PUBLIC}/#/approvals/`)).toBe(true)
  } finally {
    await server.stop()
  }
})

it("server.publicUrl in the config file does the same; without it, the address the request came to is used", async () => {
  const config = join(dir.dir, "file.config.json")
  const file = (server: Record<string, unknown>) =>
    JSON.stringify({
      server,
      sources: [{ namespace: "ledger", kind: "mcp", transport: { type: "stdio", ...ledger() } }],
      policies: [{ pattern: "ledger.write", action: "require_approval" }],
    })
  writeFileSync(config, file({ publicUrl: PUBLIC, allowStdio: true, db: join(dir.dir, "file.db") }))
  const behind = await spawnServe(["--config", config])
  try {
    expect((await linksOf(behind)).callback).toBe(`${PUBLIC}/v1/oauth/callback`)
  } finally {
    await behind.stop()
  }
  writeFileSync(config, file({ allowStdio: true, db: join(dir.dir, "plain.db") }))
  const plain = await spawnServe(["--config", config])
  try {
    const links = await linksOf(plain)
    expect(links.callback).toBe(`${plain.url}/v1/oauth/callback`)
    expect(links.page.startsWith(`${plain.url}/#/approvals/`)).toBe(true)
  } finally {
    await plain.stop()
  }
})

it("refuses a public URL that cannot be a base URL, naming it, before anything starts", async () => {
  const flag = await runCli([
    "serve",
    "--port",
    "0",
    "--db",
    join(dir.dir, "bad.db"),
    "--public-url",
    "https://x.example.com/?a=1",
  ])
  // a flag that is wrong is a usage error
  expect(flag.status).toBe(2)
  expect(flag.stderr).toContain("--public-url: the public URL must be the server's base URL alone")
  const config = join(dir.dir, "bad.config.json")
  writeFileSync(config, JSON.stringify({ server: { publicUrl: "switchboard.example.com" } }))
  const file = await runCli(["serve", "--port", "0", "--config", config])
  expect(file.status).toBe(1)
  expect(file.stderr).toContain("server.publicUrl must be the server's base URL")
})
