/**
 * Logins against oidc-provider (OpenID Certified), the browser's part in Chromium (Debian's, through playwright-core):
 * its login page, its consent page, the redirect to this server's callback. With dynamic registration, and with a
 * pre-registered client where registration is off; refresh tokens for offline_access, rotated at every use; a
 * revoked grant, then a new login; a machine-to-machine source's token, got when it is added.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginInChromium, machineClient, startOidcAuthServer, webClient } from "@switchboard/fixtures"
import type { OidcAuthServer } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

const login = async (namespace: string) => {
  const started = await server.request("POST", `/v1/sources/${namespace}/login`)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const asked = new URL(started.body.authorizationUrl).searchParams
  return { ...(await loginInChromium(started.body.authorizationUrl)), asked }
}

const add = (namespace: string, url: string, auth?: Record<string, unknown>) =>
  server.request("POST", "/v1/sources", {
    namespace,
    kind: "mcp",
    transport: { type: "http", url },
    ...(auth ? { auth } : {}),
  })

describe("oidc-provider with dynamic registration", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    upstream = await startOidcAuthServer({ accessTtlSeconds: 30 })
  })
  afterAll(() => upstream?.close())

  it("logs in through its pages in Chromium, then calls with a token for exactly this resource", async () => {
    const added = await add("oidc", upstream.mcpUrl)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source.status).toBe("needs_login")
    const done = await login("oidc")
    expect(done.url.startsWith(`${server.url}/v1/oauth/callback?`)).toBe(true)
    expect(done.page).toContain("Logged in")
    const source = await server.request("GET", "/v1/sources/oidc")
    expect(source.body.source).toMatchObject({ status: "ready", toolCount: 1, auth: { status: "connected" } })
    // offline_access was asked for (with the consent OpenID Connect requires for it); the access token's scope is
    // the resource's, and the refresh token it brought is used in the next test
    expect(done.asked.get("scope")).toBe("mcp:tools offline_access")
    expect(done.asked.get("prompt")).toBe("consent")
    expect(source.body.source.auth.scopes).toEqual(["mcp:tools"])
    const run = await server.execute("return (await tools.oidc.whoami({})).data")
    expect(run.result).toMatchObject({ sub: "ada", aud: upstream.mcpUrl })
  })

  it("refreshes with a rotated refresh token, again and again", async () => {
    // a 30 s token is within the minute before expiry: each call refreshes it, with the refresh token the last one gave
    for (let i = 0; i < 3; i++) {
      const run = await server.execute("return (await tools.oidc.whoami({})).data")
      expect(run.result, JSON.stringify(run)).toMatchObject({ sub: "ada" })
    }
    expect(upstream.counts.refreshes).toBeGreaterThanOrEqual(3)
    expect(upstream.counts.refused).toBe(0)
  })

  it("a revoked grant answers auth_expired and lists the source needs_login; a new login in Chromium mends it", async () => {
    await upstream.revokeGrants()
    const run = await server.execute("return await tools.oidc.whoami({})")
    expect(run.result).toMatchObject({ ok: false, error: { code: "auth_expired" } })
    expect(run.result.error.message).toContain("switchboard sources login oidc")
    const listed = await server.request("GET", "/v1/sources/oidc")
    expect(listed.body.source).toMatchObject({ status: "needs_login", auth: { status: "expired" } })
    expect((await login("oidc")).page).toContain("Logged in")
    const again = await server.execute("return (await tools.oidc.whoami({})).data")
    expect(again.result).toMatchObject({ sub: "ada" })
    expect((await server.request("GET", "/v1/sources/oidc")).body.source.auth.status).toBe("connected")
  })
})

describe("oidc-provider without registration", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    upstream = await startOidcAuthServer({
      registration: false,
      preRegistered: [webClient("switchboard-pre", "pre-registered-client-secret", `${server.url}/v1/oauth/callback`)],
    })
  })
  afterAll(() => upstream?.close())

  it("says what to do without a client, and logs in with the pre-registered one", async () => {
    expect((await add("bare", upstream.mcpUrl)).status).toBe(201)
    const refused = await server.request("POST", "/v1/sources/bare/login")
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toContain("offers no dynamic client registration")

    const added = await add("pre", upstream.mcpUrl, {
      clientId: "switchboard-pre",
      clientSecret: "pre-registered-client-secret",
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(JSON.stringify(added.body)).not.toContain("pre-registered-client-secret")
    const done = await login("pre")
    expect(done.page).toContain("Logged in")
    const run = await server.execute("return (await tools.pre.whoami({})).data")
    expect(run.result).toMatchObject({ sub: "ada", aud: upstream.mcpUrl })
  })
})

describe("oidc-provider, machine to machine", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    upstream = await startOidcAuthServer({
      clientCredentials: true,
      registration: false,
      preRegistered: [machineClient("switchboard-m2m", "machine-client-secret-value")],
    })
  })
  afterAll(() => upstream?.close())

  it("a source with the client credentials grant needs no login: its tools sync when it is added", async () => {
    const added = await add("m2m", upstream.mcpUrl, {
      grant: "client_credentials",
      clientId: "switchboard-m2m",
      clientSecret: "machine-client-secret-value",
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source).toMatchObject({ status: "ready", toolCount: 1, auth: { status: "connected" } })
    // connected with the token the add got: stored once the source was, with its expiry and scopes
    expect(added.body.source.auth).toMatchObject({ expiresAt: expect.any(String), scopes: ["mcp:tools"] })
    const run = await server.execute("return (await tools.m2m.whoami({})).data")
    expect(run.result).toMatchObject({ aud: upstream.mcpUrl, scope: "mcp:tools" })
  })

  it("without a token yet it shows no_token, not connected; a sync asks for one", async () => {
    // as a catalog an older build wrote: the source, and no grant; read by a server that has never seen its token
    const db = new Database(server.dbPath)
    db.prepare("DELETE FROM source_auth").run()
    db.close()
    const other = await startTestServer({ dbPath: server.dbPath, keepDb: true })
    try {
      const bare = await other.request("GET", "/v1/sources/m2m")
      expect(bare.body.source.auth).toEqual({ status: "no_token", expiresAt: null, scopes: [] })
      const synced = await other.request("POST", "/v1/sources/m2m/sync")
      expect(synced.status, JSON.stringify(synced.body)).toBe(200)
      expect(synced.body.source.auth).toMatchObject({ status: "connected", expiresAt: expect.any(String) })
    } finally {
      await other.stop()
    }
  })
})
