/**
 * OAuth for a source against the MCP SDK's own authorization server (`mcpAuthRouter`) guarding a real SDK MCP
 * server that checks the bearer token and its audience: discovery from the 401, registration, PKCE, the resource
 * indicator, offline_access, sealed storage, refresh before expiry and once on a 401, a revoked grant. On SQLite.
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { createOAuthService } from "../src/oauth/oauth-service.js"
import { createSecretBox, generateSecretKey } from "../src/secrets/secret-box.js"
import { silentLogger } from "../src/errors.js"
import type { CredentialSubject, SourcePlugin } from "../src/seams.js"
import type { OAuthSettings } from "../src/oauth/settings.js"
import { openSqliteStore } from "./sqlite-store.js"

const closers: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const CALLBACK = "http://127.0.0.1:9/v1/oauth/callback"

/** follows the authorization URL as a browser would, up to the redirect to the callback; its query */
const approve = async (authorizationUrl: string) => {
  const answer = await fetch(authorizationUrl, { redirect: "manual" })
  expect(answer.status).toBe(302)
  const location = new URL(answer.headers.get("location")!)
  expect(location.origin + location.pathname).toBe(CALLBACK)
  return location.searchParams
}

const callTool = (mcpUrl: string, authorization: string | null, name = "whoami", args = {}) =>
  fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  })

const setup = async (options: Parameters<typeof startSdkAuthServer>[0] = {}, settings: OAuthSettings = {}) => {
  const upstream = await startSdkAuthServer(options)
  closers.push(() => upstream.close())
  const db = openSqliteStore()
  closers.push(() => db.close())
  await db.store.insertSource({
    id: "src-1",
    namespace: "docs",
    kind: "fake",
    config: {},
    status: "needs_login",
    lastSyncedAt: null,
    syncError: null,
    createdAt: 1,
    updatedAt: 1,
  })
  const box = await createSecretBox(generateSecretKey())
  const oauth = createOAuthService({ store: db.store, box, logger: silentLogger })
  const plugin = { kind: "fake", oauth: () => ({ resource: upstream.mcpUrl, settings }) } as unknown as SourcePlugin
  const synced: string[] = []
  const logins = oauth.forSources({
    store: db.store,
    plugins: [plugin],
    sync: async (namespace) => void synced.push(namespace),
  })
  const subject: CredentialSubject = { id: "src-1", namespace: "docs", oauth: { resource: upstream.mcpUrl, settings } }
  const login = async () => {
    const started = await Effect.runPromise(logins.begin("docs", { redirectUri: CALLBACK, keyId: "key-1" }))
    return Effect.runPromise(logins.complete(await approve(started.authorizationUrl)))
  }
  return { upstream, db, oauth, logins, subject, synced, login }
}

const rawRows = (dir: string) => {
  const sqlite = new Database(`${dir}/catalog.db`, { readonly: true })
  try {
    return JSON.stringify([
      sqlite.prepare("select * from source_auth").all(),
      sqlite.prepare("select * from oauth_clients").all(),
      sqlite.prepare("select * from oauth_states").all(),
    ])
  } finally {
    sqlite.close()
  }
}

const noTokenIn = (text: string, upstream: SdkAuthServer) => {
  for (const token of upstream.provider.issuedTokens()) expect(text).not.toContain(token)
}

describe("OAuth against the MCP SDK's authorization server", () => {
  it("logs in with registration, PKCE, the resource indicator and offline_access, then calls with the token", async () => {
    const { upstream, db, oauth, subject, synced, login } = await setup()
    // before a login there is nothing to send; the source's 401 names its metadata, which asks for a login
    expect(await oauth.credentials.authorization(subject)).toEqual({ ok: true, authorization: null })
    const refused = await callTool(upstream.mcpUrl, null)
    expect(refused.status).toBe(401)
    const challenge = refused.headers.get("www-authenticate")
    expect(challenge).toContain("resource_metadata=")
    expect(await oauth.credentials.rejected(subject, null, challenge)).toMatchObject({
      ok: false,
      code: "auth_required",
    })
    // a 401 that names no metadata, from a source given no OAuth settings, is the source's own answer
    expect(await oauth.credentials.rejected(subject, null, 'Bearer realm="x"')).toEqual({
      ok: true,
      authorization: null,
    })

    const done = await login()
    expect(done).toMatchObject({ namespace: "docs", keyId: "key-1", syncError: null })
    expect(synced).toEqual(["docs"])
    expect(upstream.provider.counts).toMatchObject({ registrations: 1, codeExchanges: 1 })
    const [client] = [...upstream.provider.clients.values()]
    expect(client).toMatchObject({ redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" })

    const credential = await oauth.credentials.authorization(subject)
    expect(credential.ok).toBe(true)
    const answer = await callTool(upstream.mcpUrl, credential.ok ? credential.authorization : null)
    expect(answer.status).toBe(200)
    const text = await answer.text()
    // the token was issued for exactly this resource, with offline_access (so a refresh token came back)
    expect(text).toContain(upstream.mcpUrl.replace(/\//g, "\\/").replace(/\\\//g, "/"))
    expect(text).toContain("offline_access")
    expect(await oauth.view("src-1")).toMatchObject({ status: "connected", scopes: ["mcp:tools", "offline_access"] })

    // sealed at rest: no token, secret or verifier in any OAuth row
    noTokenIn(rawRows(db.dir), upstream)
    expect(rawRows(db.dir)).toContain("enc:v1:")
  })

  it("refreshes a token that is about to expire before using it, and stores the rotated refresh token", async () => {
    const { upstream, oauth, subject, login } = await setup({ accessTtlSeconds: 30 })
    await login()
    // a 30 s token is within the minute before expiry: the first use refreshes it
    const first = await oauth.credentials.authorization(subject)
    expect(upstream.provider.counts.refreshes).toBe(1)
    expect(first.ok && (await callTool(upstream.mcpUrl, first.authorization)).status).toBe(200)
    // and again: the rotated refresh token was stored, or this refresh would be a replay that revokes the grant
    const second = await oauth.credentials.authorization(subject)
    expect(upstream.provider.counts).toMatchObject({ refreshes: 2, replays: 0 })
    expect(second.ok && (await callTool(upstream.mcpUrl, second.authorization)).status).toBe(200)
  })

  it("refreshes once when the source answers 401 to a token it had accepted", async () => {
    const { upstream, oauth, subject, login } = await setup()
    await login()
    const before = await oauth.credentials.authorization(subject)
    if (!before.ok) throw new Error(before.message)
    upstream.provider.expireAccessTokens()
    const refused = await callTool(upstream.mcpUrl, before.authorization)
    expect(refused.status).toBe(401)
    const after = await oauth.credentials.rejected(
      subject,
      before.authorization,
      refused.headers.get("www-authenticate"),
    )
    expect(upstream.provider.counts.refreshes).toBe(1)
    if (!after.ok) throw new Error(after.message)
    expect(after.authorization).not.toBe(before.authorization)
    expect((await callTool(upstream.mcpUrl, after.authorization)).status).toBe(200)
  })

  it("a revoked grant gives auth_expired, then a new login works", async () => {
    const { upstream, oauth, subject, login } = await setup()
    await login()
    const before = await oauth.credentials.authorization(subject)
    if (!before.ok) throw new Error(before.message)
    upstream.provider.revokeAll()
    const refused = await callTool(upstream.mcpUrl, before.authorization)
    const after = await oauth.credentials.rejected(
      subject,
      before.authorization,
      refused.headers.get("www-authenticate"),
    )
    expect(after).toMatchObject({ ok: false, code: "auth_expired" })
    expect(after.ok ? "" : after.message).toContain("switchboard sources login docs")
    expect(await oauth.view("src-1")).toMatchObject({ status: "expired" })
    expect(await oauth.credentials.authorization(subject)).toMatchObject({ ok: false, code: "auth_expired" })

    await login()
    const again = await oauth.credentials.authorization(subject)
    expect(again.ok && (await callTool(upstream.mcpUrl, again.authorization)).status).toBe(200)
    expect(await oauth.view("src-1")).toMatchObject({ status: "connected" })
  })

  it("logs in with a pre-registered client where the server offers no registration", async () => {
    const client = {
      client_id: "pre-registered",
      client_secret: "pre-registered-secret-value",
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: "client_secret_post",
    }
    const { upstream, oauth, subject, login, db } = await setup(
      { registration: false, preRegistered: [client] },
      { clientId: "pre-registered", clientSecret: "pre-registered-secret-value" },
    )
    await login()
    expect(upstream.provider.counts.registrations).toBe(0)
    const credential = await oauth.credentials.authorization(subject)
    expect(credential.ok && (await callTool(upstream.mcpUrl, credential.authorization)).status).toBe(200)
    expect(rawRows(db.dir)).not.toContain("pre-registered-secret-value")
  })

  it("says what to do where the server offers no registration and no client is given", async () => {
    const { logins } = await setup({ registration: false })
    const failed = await Effect.runPromise(Effect.flip(logins.begin("docs", { redirectUri: CALLBACK, keyId: null })))
    expect(failed._tag).toBe("InvalidInput")
    expect(failed.message).toContain("offers no dynamic client registration")
    expect(failed.message).toContain("clientId")
  })
})
