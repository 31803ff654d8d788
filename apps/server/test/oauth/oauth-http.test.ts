/**
 * A hosted MCP server that needs OAuth, over this server's HTTP API: added while it needs a login (listed
 * `needs_login`, a call answering `auth_required` with the command that logs in), logged in through
 * `POST /v1/sources/:namespace/login` and the server's own callback, then called. The authorization server is the
 * MCP SDK's own (`mcpAuthRouter`), guarding a real SDK MCP server that checks the token's audience. No token is in
 * any answer, log line or catalog row.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const { logger, lines } = memoryLogger()
let upstream: SdkAuthServer
let server: TestServer
const answers: unknown[] = []

const request = async (method: string, path: string, body?: unknown) => {
  const answer = await server.request(method, path, body)
  answers.push(answer.body)
  return answer
}

beforeAll(async () => {
  upstream = await startSdkAuthServer()
  server = await startTestServer({ logger })
})
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

/** the browser's part: the authorization server redirects at once to the callback, which the browser then opens */
const browse = async (authorizationUrl: string) => {
  const redirect = await fetch(authorizationUrl, { redirect: "manual" })
  expect(redirect.status).toBe(302)
  const callback = redirect.headers.get("location")!
  expect(callback.startsWith(`${server.url}/v1/oauth/callback?`)).toBe(true)
  return callback
}

describe("an MCP source behind OAuth, over HTTP", () => {
  it("is added while it needs a login, and says so to a script and a listing", async () => {
    const added = await request("POST", "/v1/sources", {
      namespace: "docs",
      kind: "mcp",
      transport: { type: "http", url: upstream.mcpUrl },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source).toMatchObject({ status: "needs_login", toolCount: 0, auth: { status: "needs_login" } })
    expect(added.body.source.syncError).toContain("switchboard sources login docs")

    const listed = await request("GET", "/v1/sources")
    expect(listed.body.sources[0]).toMatchObject({ namespace: "docs", status: "needs_login" })

    const run = await server.execute("return await tools.docs.whoami({})")
    answers.push(run)
    expect(run.result).toMatchObject({ ok: false, error: { code: "auth_required" } })
    expect(run.result.error.message).toContain("switchboard sources login docs")
  })

  it("logs in through the login route and the server's own callback, then syncs and calls", async () => {
    const login = await request("POST", "/v1/sources/docs/login")
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    const { authorizationUrl, expiresAt } = login.body
    const url = new URL(authorizationUrl)
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(url.searchParams.get("resource")).toBe(upstream.mcpUrl)
    expect(url.searchParams.get("redirect_uri")).toBe(`${server.url}/v1/oauth/callback`)
    expect(url.searchParams.get("scope")).toBe("mcp:tools offline_access")
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000)

    const callback = await browse(authorizationUrl)
    const page = await fetch(callback)
    const html = await page.text()
    answers.push(html)
    expect(page.status, html).toBe(200)
    expect(html).toContain("Logged in")
    expect(html).toContain("Its tools are synced")

    // the callback's URL again: its state is spent
    const replay = await fetch(callback)
    const replayHtml = await replay.text()
    answers.push(replayHtml)
    expect(replay.status).toBe(400)
    expect(replayHtml).toContain("completed (or tried) already")

    const source = await request("GET", "/v1/sources/docs")
    expect(source.body.source).toMatchObject({
      status: "ready",
      toolCount: 2,
      auth: { status: "connected", scopes: ["mcp:tools", "offline_access"] },
    })
    expect(Date.parse(source.body.source.auth.expiresAt)).toBeGreaterThan(Date.now())

    const run = await server.execute("return (await tools.docs.whoami({})).data")
    answers.push(run)
    expect(run.result).toMatchObject({ resource: upstream.mcpUrl, scopes: ["mcp:tools", "offline_access"] })
  })

  it("a wrong or missing state is refused, and the login route needs a source that logs in", async () => {
    const wrong = await fetch(`${server.url}/v1/oauth/callback?code=abc&state=not-a-state`)
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain("not one this server handed out")
    const none = await fetch(`${server.url}/v1/oauth/callback?code=abc`)
    expect(none.status).toBe(400)
    const missing = await request("POST", "/v1/sources/nope/login")
    expect(missing.status).toBe(404)
  })

  it("never shows a token: not in an answer, a log line or a catalog row", () => {
    const tokens = upstream.provider.issuedTokens()
    expect(tokens.length).toBeGreaterThan(1)
    const sqlite = new Database(server.dbPath, { readonly: true })
    const tables = ["source_auth", "oauth_clients", "oauth_states", "sources", "tools", "executions", "tool_calls"]
    const rows = JSON.stringify(tables.map((table) => sqlite.prepare(`select * from ${table}`).all()))
    sqlite.close()
    const everything = [JSON.stringify(answers), JSON.stringify(lines), rows].join("\n")
    for (const token of tokens) expect(everything).not.toContain(token)
    expect(rows).toContain("enc:v1:")
  })
})
