/**
 * An OpenAPI source whose operations need an oauth2 scheme logs in with the same machinery as an MCP source. The API
 * is a real REST service on loopback behind oidc-provider (OpenID Certified), which checks each token's signature,
 * issuer and audience; its OpenAPI document declares the provider's authorization code and client credentials flows.
 * The source is added as `needs_login` and answers `auth_required`; a login (the provider's pages in Chromium) syncs
 * its tools; calls carry the token, refreshed before it expires and once on a 401; a revoked grant is `auth_expired`.
 * With client credentials it gets its token when it is added. A provider that publishes no metadata is logged in
 * with the spec's endpoints alone. No token is in any answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginInChromium, machineClient, startOidcAuthServer, webClient } from "@switchboard/fixtures"
import type { OidcAuthServer } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
const answers: unknown[] = []
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

const request = async (method: string, path: string, body?: unknown) => {
  const answer = await server.request(method, path, body)
  answers.push(answer.body)
  return answer
}

const addApi = (namespace: string, upstream: OidcAuthServer, auth?: Record<string, unknown>) =>
  request("POST", "/v1/sources", {
    namespace,
    kind: "openapi",
    spec: { url: upstream.api.specUrl },
    ...(auth ? { auth } : {}),
  })

const call = async (namespace: string) => {
  const run = await server.execute(`return await tools.${namespace}.whoami({})`)
  answers.push(run)
  return run.result
}

/** the person's part, in Chromium: the provider's login and consent pages, then this server's callback */
const login = async (namespace: string) => {
  const started = await request("POST", `/v1/sources/${namespace}/login`)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const done = await loginInChromium(started.body.authorizationUrl)
  expect(done.page).toContain("Logged in")
  return Object.assign(new URL(started.body.authorizationUrl).searchParams, { callback: new URL(done.url) })
}

describe("the authorization code flow the spec declares", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    // 30 s tokens: within the minute before expiry, each call refreshes (with a refresh token rotated at every use)
    upstream = await startOidcAuthServer({ accessTtlSeconds: 30 })
  })
  afterAll(() => upstream?.close())

  it("is added needing a login, which a call names; a login in Chromium syncs its tools and its calls carry the token", async () => {
    const added = await addApi("people", upstream)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source).toMatchObject({ status: "needs_login", toolCount: 0, auth: { status: "needs_login" } })
    expect(added.body.source.syncError).toContain("switchboard sources login people")
    const before = await call("people")
    expect(before).toMatchObject({ ok: false, error: { code: "auth_required" } })
    expect(before.error.message).toContain("switchboard sources login people")

    const asked = await login("people")
    // the spec's endpoints (the provider's metadata names the same ones), its operations' scope, and offline_access
    // which the provider lists, so a refresh token comes back
    expect(asked.get("scope")).toBe("api:read offline_access")
    expect(asked.get("code_challenge_method")).toBe("S256")
    expect(asked.has("resource")).toBe(false)
    const source = await request("GET", "/v1/sources/people")
    expect(source.body.source).toMatchObject({ status: "ready", toolCount: 1, auth: { status: "connected" } })
    expect(source.body.source.auth.scopes).toEqual(["api:read"])
    expect(await call("people")).toMatchObject({
      ok: true,
      data: { sub: "ada", aud: upstream.api.apiUrl, scope: "api:read" },
    })
  })

  it("refreshes before expiry, and once more when the API answers 401, then calls again", async () => {
    const refreshes = upstream.counts.refreshes
    for (let i = 0; i < 2; i++) expect(await call("people")).toMatchObject({ ok: true, data: { sub: "ada" } })
    expect(upstream.counts.refreshes).toBeGreaterThanOrEqual(refreshes + 2)

    const refused = upstream.api.counts.unauthorized
    const before401 = upstream.counts.refreshes
    upstream.api.rejectNext()
    expect(await call("people")).toMatchObject({ ok: true, data: { sub: "ada" } })
    expect(upstream.api.counts.unauthorized).toBe(refused + 1)
    // the call's own refresh before expiry, and the one its 401 asked for
    expect(upstream.counts.refreshes).toBe(before401 + 2)
    expect(upstream.counts.refused).toBe(0)
  })

  it("a revoked grant answers auth_expired and lists the source needs_login; a new login mends it", async () => {
    await upstream.revokeGrants()
    const run = await call("people")
    expect(run).toMatchObject({ ok: false, error: { code: "auth_expired" } })
    expect(run.error.message).toContain("switchboard sources login people")
    const listed = await request("GET", "/v1/sources/people")
    expect(listed.body.source).toMatchObject({ status: "needs_login", auth: { status: "expired" } })
    await login("people")
    expect(await call("people")).toMatchObject({ ok: true, data: { sub: "ada" } })
  })
})

describe("the client credentials flow the spec declares", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    upstream = await startOidcAuthServer({
      clientCredentials: true,
      registration: false,
      preRegistered: [machineClient("people-m2m", "people-machine-secret")],
    })
  })
  afterAll(() => upstream?.close())

  it("gets its token when it is added: ready and connected, the secret never shown, and it needs no login", async () => {
    const added = await addApi("machine", upstream, {
      oidcLogin: { grant: "client_credentials", clientId: "people-m2m", clientSecret: "people-machine-secret" },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source).toMatchObject({
      status: "ready",
      toolCount: 1,
      auth: { status: "connected", expiresAt: expect.any(String), scopes: ["api:read"] },
      config: { auth: { oidcLogin: { clientId: "people-m2m", clientSecret: "<redacted>" } } },
    })
    expect(await call("machine")).toMatchObject({
      ok: true,
      data: { sub: "people-m2m", aud: upstream.api.apiUrl, scope: "api:read" },
    })
    const refused = await request("POST", "/v1/sources/machine/login")
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toContain("client credentials grant: no person's login is needed")
  })

  it("refuses settings whose flow the spec does not declare, or for a scheme it does not, naming them", async () => {
    const noFlow = await addApi("noflow", upstream, { oidcLogin: { grant: "client_credentials" } })
    expect(noFlow.status).toBe(400)
    expect(noFlow.body.error.message).toContain("auth.<scheme>.grant client_credentials needs")
    const unknown = await addApi("unknown", upstream, { other: { clientId: "x" } })
    expect(unknown.status).toBe(502)
    expect(unknown.body.error.message).toContain('the spec declares no security scheme "other"')
  })
})

describe("an authorization server that publishes no metadata", () => {
  let upstream: OidcAuthServer
  beforeAll(async () => {
    upstream = await startOidcAuthServer({
      hideMetadata: true,
      preRegistered: [webClient("people-web", "people-web-secret", `${server.url}/v1/oauth/callback`)],
    })
  })
  afterAll(() => upstream?.close())

  it("logs in with the spec's endpoints alone, with the client given, its answer's issuer checked by origin", async () => {
    expect((await fetch(`${upstream.issuer}/.well-known/openid-configuration`)).status).toBe(404)
    const added = await addApi("hidden", upstream, {
      oidcLogin: { clientId: "people-web", clientSecret: "people-web-secret" },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.source.status).toBe("needs_login")
    const asked = await login("hidden")
    expect(asked.get("client_id")).toBe("people-web")
    // no metadata lists what the server offers: the spec's flow does, offline_access among it
    expect(asked.get("scope")).toBe("api:read offline_access")
    // RFC 9207: the provider names itself in its answer, which is taken as the issuer from the endpoints' origin
    expect(asked.callback.searchParams.get("iss")).toBe(upstream.issuer)
    expect(await call("hidden")).toMatchObject({ ok: true, data: { sub: "ada", aud: upstream.api.apiUrl } })
  })

  it("refuses an answer naming an issuer of another origin: a mix-up of servers", async () => {
    const started = await request("POST", "/v1/sources/hidden/login")
    const state = new URL(started.body.authorizationUrl).searchParams.get("state")!
    const query = new URLSearchParams({ code: "any", state, iss: "https://as.example.com" })
    const page = await fetch(`${server.url}/v1/oauth/callback?${query}`)
    expect(page.status).toBe(400)
    expect(await page.text()).toContain("a mix-up of servers (RFC 9207)")
    // the login it had stays
    expect(await call("hidden")).toMatchObject({ ok: true, data: { sub: "ada" } })
  })
})

it("shows no token or client secret in any answer", () => {
  const text = JSON.stringify(answers)
  for (const secret of ["people-machine-secret", "people-web-secret"]) expect(text).not.toContain(secret)
  expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+/)
})
