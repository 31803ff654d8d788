/**
 * The cases OAuth must refuse or survive, each against the MCP SDK's own authorization server: a wrong, replayed or
 * expired state; a replayed code (the callback sent twice); an issuer that does not match; and two servers on one
 * Postgres refreshing a rotating refresh token at once, which must spend it once (the provider revokes the grant
 * of a refresh token presented twice) and both keep working.
 */
import { fileURLToPath } from "node:url"
import postgres from "postgres"
import { drizzle } from "drizzle-orm/postgres-js"
import { migrate } from "drizzle-orm/postgres-js/migrator"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { createTestDatabase, startSdkAuthServer } from "@switchboard/fixtures"
import { createPgCatalogStore } from "../src/catalog/dialect-pg.js"
import type { PgCatalogDb } from "../src/catalog/dialect-pg.js"
import type { CatalogStore } from "../src/catalog/rows.js"
import { createOAuthService } from "../src/oauth/oauth-service.js"
import { createSecretBox, generateSecretKey } from "../src/secrets/secret-box.js"
import type { SecretBox } from "../src/secrets/secret-box.js"
import { silentLogger } from "../src/errors.js"
import type { CredentialSubject, SourcePlugin } from "../src/seams.js"
import { openSqliteStore } from "./sqlite-store.js"

const closers: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

const CALLBACK = "http://127.0.0.1:9/v1/oauth/callback"

const approve = async (authorizationUrl: string) => {
  const answer = await fetch(authorizationUrl, { redirect: "manual" })
  return new URL(answer.headers.get("location")!).searchParams
}

const addSource = (store: CatalogStore) =>
  store.insertSource({
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

const servicesOn = (store: CatalogStore, box: SecretBox, mcpUrl: string, now?: () => number) => {
  const oauth = createOAuthService({ store, box, logger: silentLogger, now })
  const plugin = { kind: "fake", oauth: () => ({ resource: mcpUrl, settings: {} }) } as unknown as SourcePlugin
  const logins = oauth.forSources({ store, plugins: [plugin], sync: async () => {} })
  const subject: CredentialSubject = { id: "src-1", namespace: "docs", oauth: { resource: mcpUrl, settings: {} } }
  return { oauth, logins, subject }
}

const onSqlite = async (options: Parameters<typeof startSdkAuthServer>[0] = {}, now?: () => number) => {
  const upstream = await startSdkAuthServer(options)
  closers.push(() => upstream.close())
  const db = openSqliteStore()
  closers.push(() => db.close())
  await addSource(db.store)
  const box = await createSecretBox(generateSecretKey())
  return { upstream, ...servicesOn(db.store, box, upstream.mcpUrl, now) }
}

const failureOf = <E>(effect: Effect.Effect<unknown, E>) => Effect.runPromise(Effect.flip(effect))

describe("the callback's state", () => {
  it("is refused when it is not one this server handed out, or missing", async () => {
    const { logins } = await onSqlite()
    await Effect.runPromise(logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    const wrong = await failureOf(logins.complete(new URLSearchParams({ code: "x", state: "made-up" })))
    expect(wrong).toMatchObject({ _tag: "InvalidInput" })
    expect(wrong.message).toContain("not one this server handed out")
    const none = await failureOf(logins.complete(new URLSearchParams({ code: "x" })))
    expect(none.message).toContain("carries no state")
  })

  it("is good once: the same callback again (a replayed code) never reaches the authorization server", async () => {
    const { upstream, logins } = await onSqlite()
    const started = await Effect.runPromise(logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    const callback = await approve(started.authorizationUrl)
    await Effect.runPromise(logins.complete(callback))
    const replay = await failureOf(logins.complete(callback))
    expect(replay.message).toContain("completed (or tried) already")
    expect(upstream.provider.counts.codeExchanges).toBe(1)
    // and the authorization server itself takes a code once
    const again = await fetch(new URL("/token", upstream.issuer), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback.get("code")!,
        client_id: new URL(started.authorizationUrl).searchParams.get("client_id")!,
        code_verifier: "a".repeat(43),
        redirect_uri: CALLBACK,
      }),
    })
    expect(again.status).toBe(400)
  })

  it("expires after 10 minutes", async () => {
    let at = Date.now()
    const { logins } = await onSqlite({}, () => at)
    const started = await Effect.runPromise(logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    const callback = await approve(started.authorizationUrl)
    at += 10 * 60_000 + 1
    const late = await failureOf(logins.complete(callback))
    expect(late.message).toContain("longer than 10 minutes")
  })

  it("carries an error the authorization server sent back to the person, not a code", async () => {
    const { logins } = await onSqlite()
    const started = await Effect.runPromise(logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    const state = new URL(started.authorizationUrl).searchParams.get("state")!
    const denied = await failureOf(
      logins.complete(new URLSearchParams({ error: "access_denied", error_description: "the user said no", state })),
    )
    expect(denied.message).toContain("access_denied (the user said no)")
  })
})

describe("the authorization server's identity", () => {
  it("refuses metadata that names another issuer than the one it was found for (RFC 8414 §3.3)", async () => {
    const { logins } = await onSqlite({ claimIssuer: "https://accounts.example.com/" })
    const failed = await failureOf(logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    expect(failed._tag).toBe("UpstreamFailed")
    expect(failed.message).toContain("names another issuer (https://accounts.example.com/)")
  })
})

describe("two servers on one Postgres", () => {
  it("refresh a rotating token at once: it is spent once, and both keep working", async () => {
    const upstream = await startSdkAuthServer({ accessTtlSeconds: 90 })
    closers.push(() => upstream.close())
    const database = await createTestDatabase("switchboard_oauth")
    closers.push(() => database.drop())
    const migrator = postgres(database.url, { max: 1, onnotice: () => {} })
    await migrate(drizzle(migrator), {
      migrationsFolder: fileURLToPath(new URL("../../../drizzle/postgres", import.meta.url)),
    })
    await migrator.end()
    const box = await createSecretBox(generateSecretKey())
    const serverOn = () => {
      const client = postgres(database.url, { max: 4, onnotice: () => {} })
      closers.push(() => client.end())
      return servicesOn(
        createPgCatalogStore(drizzle(client) as unknown as PgCatalogDb),
        box,
        upstream.mcpUrl,
        () => clock,
      )
    }
    let clock = Date.now()
    const [first, second] = [serverOn(), serverOn()]
    await addSource(createPgCatalogStore(drizzle(postgres(database.url, { max: 1 })) as unknown as PgCatalogDb))
    const started = await Effect.runPromise(first.logins.begin("docs", { redirectUri: CALLBACK, keyId: null }))
    await Effect.runPromise(first.logins.complete(await approve(started.authorizationUrl)))

    // each token lives 90 s; each round the servers' clock moves 40 s on, into the minute before expiry, and both
    // servers refresh at the same moment (a call that comes after the refresh finds 90 s left and uses that token)
    for (let round = 1; round <= 5; round++) {
      clock += 40_000
      const answers = await Promise.all([
        first.oauth.credentials.authorization(first.subject),
        second.oauth.credentials.authorization(second.subject),
        first.oauth.credentials.authorization(first.subject),
        second.oauth.credentials.authorization(second.subject),
      ])
      for (const answer of answers) {
        expect(answer.ok, JSON.stringify(answer)).toBe(true)
        const authorization = answer.ok ? answer.authorization : ""
        const call = await fetch(upstream.mcpUrl, {
          method: "POST",
          headers: {
            authorization: authorization ?? "",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "whoami", arguments: {} },
          }),
        })
        expect(call.status).toBe(200)
      }
      expect(upstream.provider.counts).toMatchObject({ refreshes: round, replays: 0 })
    }
  })
})
