/**
 * A source's OAuth settings changed by PATCH (`PATCH /v1/sources/:namespace`, `switchboard sources update`): the
 * client secret sealed and never shown; another client, grant or authorization server drops the stored login (the
 * answer names `oauth.tokens`) and the source needs a new one; a new secret for the same client, or a change of
 * anything else, keeps it (and a rotated secret is what the next refresh sends); a machine-to-machine source gets a
 * new token at once; bad settings are refused, naming what is wrong. The authorization server is the MCP SDK's own,
 * with a client pre-registered besides the ones it registers itself.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand, machineClient, startOidcAuthServer, startSdkAuthServer } from "@switchboard/fixtures"
import type { OidcAuthServer, SdkAuthServer } from "@switchboard/fixtures"
import { startTestServer, tempDir } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

const SECRET = "pre-registered-secret-first"
const ROTATED = "pre-registered-secret-rotated"
let upstream: SdkAuthServer
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  // 30 s tokens: each call falls within the minute before expiry, so each refreshes
  upstream = await startSdkAuthServer({ accessTtlSeconds: 30 })
  upstream.provider.preRegister({
    client_id: "pre",
    client_secret: SECRET,
    redirect_uris: [`${server.url}/v1/oauth/callback`],
    token_endpoint_auth_method: "client_secret_post",
  })
})
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

/** the browser's part: the SDK's authorization server approves at once and redirects to the callback */
const login = async (namespace: string) => {
  const started = await server.request("POST", `/v1/sources/${namespace}/login`)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const redirect = await fetch(started.body.authorizationUrl, { redirect: "manual" })
  const page = await (await fetch(redirect.headers.get("location")!)).text()
  expect(page).toContain("Logged in")
  return new URL(started.body.authorizationUrl).searchParams.get("client_id")
}

const patch = (namespace: string, body: unknown) => server.request("PATCH", `/v1/sources/${namespace}`, body)
const whoami = async (namespace: string) => (await server.execute(`return await tools.${namespace}.whoami({})`)).result
const rawConfig = (namespace: string) => {
  const db = new Database(server.dbPath, { readonly: true })
  const row = db.prepare("SELECT config FROM sources WHERE namespace = ?").get(namespace) as { config: string }
  db.close()
  return row.config
}

describe("PATCH of an MCP source's auth", () => {
  it("keeps the login for a change that does not move it, which once made the source need a login again", async () => {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "docs",
      kind: "mcp",
      transport: { type: "http", url: upstream.mcpUrl },
    })
    expect(added.status).toBe(201)
    const registered = await login("docs")
    expect(await whoami("docs")).toMatchObject({ ok: true, data: { clientId: registered } })
    const changed = await patch("docs", { transport: { headers: { "x-trace": "on" } } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({ dropped: [], source: { status: "ready", auth: { status: "connected" } } })
    expect(await whoami("docs")).toMatchObject({ ok: true, data: { clientId: registered } })
  })

  it("another client drops the login and names it; the secret is sealed and never shown; a new login uses it", async () => {
    const changed = await patch("docs", { auth: { clientId: "pre", clientSecret: SECRET } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.dropped).toEqual(["oauth.tokens"])
    expect(changed.body.source).toMatchObject({
      status: "needs_login",
      auth: { status: "needs_login" },
      config: { auth: { clientId: "pre", clientSecret: "<redacted>" } },
    })
    expect(JSON.stringify(changed.body)).not.toContain(SECRET)
    expect(rawConfig("docs")).not.toContain(SECRET)
    expect(rawConfig("docs")).toContain("enc:v1:")
    const call = await whoami("docs")
    expect(call).toMatchObject({ ok: false, error: { code: "auth_required" } })

    expect(await login("docs")).toBe("pre")
    expect(await whoami("docs")).toMatchObject({ ok: true, data: { clientId: "pre" } })
  })

  it("a new secret for the same client keeps the login, and the next refresh sends it", async () => {
    const refreshes = upstream.provider.counts.refreshes
    // the operator rotates the secret at the authorization server, then here
    upstream.provider.preRegister({ ...upstream.provider.clients.get("pre")!, client_secret: ROTATED })
    const changed = await patch("docs", { auth: { clientId: "pre", clientSecret: ROTATED } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({ dropped: [], source: { status: "ready", auth: { status: "connected" } } })
    expect(await whoami("docs")).toMatchObject({ ok: true, data: { clientId: "pre" } })
    // the PATCH's trial and the call each refreshed the 30 s token, with the new secret (the old one is refused now)
    expect(upstream.provider.counts.refreshes).toBeGreaterThan(refreshes)
  })

  it("a URL at another origin drops the headers, the client secret and the login, unless they are sent again", async () => {
    const moved = upstream.mcpUrl.replace("127.0.0.1", "localhost")
    const changed = await patch("docs", { transport: { url: moved } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.dropped).toEqual(["transport.headers.x-trace", "auth.clientSecret", "oauth.tokens"])
    expect(changed.body.source.config.auth).toEqual({ clientId: "pre" })
    expect(changed.body.source.auth.status).toBe("needs_login")
  })

  it("refuses settings that cannot be, naming what is wrong, and stores nothing", async () => {
    const before = rawConfig("docs")
    const cases: [unknown, string][] = [
      [{ auth: { clientSecret: "x" } }, "auth.clientSecret needs auth.clientId"],
      [
        { auth: { grant: "client_credentials" } },
        "auth.grant client_credentials needs auth.clientId and auth.clientSecret",
      ],
      [{ auth: { client_id: "x" } }, 'auth takes clientId, clientSecret, scopes and grant, not "client_id"'],
      [{ auth: { scopes: ["read write"] } }, "each of auth.scopes must be one scope token, without spaces"],
      [{ auth: "pre" }, "auth must be an object"],
      [{}, 'the body must be {"transport": {...}}'],
    ]
    for (const [body, message] of cases) {
      const refused = await patch("docs", body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.error.message, JSON.stringify(body)).toContain(message)
    }
    const { command, args } = fixtureCommand("contract-stdio")
    const dir = tempDir()
    const local = join(dir.dir, "local.db")
    try {
      await runCli(["init", "--db", local])
      const stdio = await runCli([
        "sources",
        "add",
        "calc",
        "--allow-stdio",
        "--db",
        local,
        "--stdio",
        command,
        ...args,
      ])
      expect(stdio.status, stdio.stderr).toBe(0)
      const onStdio = await runCli(["sources", "update", "calc", '{"auth":{}}', "--db", local, "--allow-stdio"])
      expect(onStdio.status).toBe(1)
      expect(onStdio.stderr).toContain("auth (OAuth) is for http sources only")
    } finally {
      dir.remove()
    }
    expect(rawConfig("docs")).toBe(before)
  })
})

describe("switchboard sources update", () => {
  it("changes a source's client from the command line, on the local catalog and on a server, naming what it dropped", async () => {
    const dir = tempDir()
    const db = join(dir.dir, "local.db")
    try {
      expect((await runCli(["init", "--db", db])).status).toBe(0)
      expect((await runCli(["sources", "add", "docs", "--http", upstream.mcpUrl, "--db", db])).status).toBe(0)
      const local = await runCli(["sources", "update", "docs", '{"auth":{"clientId":"pre"}}', "--db", db])
      expect(local.status, local.stderr).toBe(0)
      // no login to drop yet: only the new settings
      expect(local.stdout).toContain("updated docs: 0 tools")
      expect(local.stdout).not.toContain("dropped")

      const added = await server.request("POST", "/v1/sources", {
        namespace: "cli",
        kind: "mcp",
        transport: { type: "http", url: upstream.mcpUrl },
      })
      expect(added.status).toBe(201)
      await login("cli")
      const pre = JSON.stringify({ auth: { clientId: "pre", clientSecret: ROTATED } })
      const json = await runCli(["sources", "update", "cli", pre, "--url", server.url, "--json"])
      expect(json.status, json.stderr).toBe(0)
      expect(json.stdout).not.toContain(ROTATED)
      expect(JSON.parse(json.stdout)).toMatchObject({
        dropped: ["oauth.tokens"],
        source: { namespace: "cli", status: "needs_login", auth: { status: "needs_login" } },
      })
      const again = await login("cli")
      expect(again).toBe("pre")
      const text = await runCli(["sources", "update", "cli", '{"auth":{"clientId":"another"}}', "--url", server.url])
      expect(text.status, text.stderr).toBe(0)
      expect(text.stdout).toContain("updated cli: ")
      expect(text.stdout).toContain("dropped (send them again to keep them): oauth.tokens")
    } finally {
      dir.remove()
    }
  })
})

describe("PATCH of a machine-to-machine source", () => {
  let machine: OidcAuthServer
  beforeAll(async () => {
    machine = await startOidcAuthServer({
      clientCredentials: true,
      registration: false,
      preRegistered: ["m2m-one", "m2m-two"].map((id) => machineClient(id, `${id}-secret-value`)),
    })
  })
  afterAll(() => machine?.close())

  it("another client drops its token and gets a new one at once: connected, never without a token", async () => {
    const auth = (id: string) => ({ grant: "client_credentials", clientId: id, clientSecret: `${id}-secret-value` })
    const added = await server.request("POST", "/v1/sources", {
      namespace: "m2m",
      kind: "mcp",
      transport: { type: "http", url: machine.mcpUrl },
      auth: auth("m2m-one"),
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(await whoami("m2m")).toMatchObject({ ok: true, data: { sub: "m2m-one" } })
    const changed = await patch("m2m", { auth: auth("m2m-two") })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.dropped).toEqual(["oauth.tokens"])
    expect(changed.body.source).toMatchObject({
      status: "ready",
      auth: { status: "connected", expiresAt: expect.any(String) },
    })
    expect(await whoami("m2m")).toMatchObject({ ok: true, data: { sub: "m2m-two" } })
  })
})
