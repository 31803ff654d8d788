/**
 * OAuth on the Worker: the deploy bundle in workerd, a source behind the MCP SDK's own authorization server added
 * while it needs a login, logged in through `POST /v1/sources/:namespace/login` and the Worker's own callback, its
 * grant kept in D1 with every token sealed, then called. And an OpenAPI source whose spec declares oidc-provider's
 * client credentials flow: its token got when it is added, its calls carrying it.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { machineClient, startOidcAuthServer, startSdkAuthServer } from "@switchboard/fixtures"
import type { OidcAuthServer, SdkAuthServer } from "@switchboard/fixtures"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

let worker: RunningWorker
let upstream: SdkAuthServer
let machine: OidcAuthServer
beforeAll(async () => {
  upstream = await startSdkAuthServer()
  machine = await startOidcAuthServer({
    clientCredentials: true,
    registration: false,
    preRegistered: [machineClient("worker-m2m", "worker-machine-secret")],
  })
  worker = await startWorker()
}, 60_000)
afterAll(async () => {
  await worker?.close()
  await upstream?.close()
  await machine?.close()
})

const api = async (method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await answer.text()
  return { status: answer.status, body: text ? JSON.parse(text) : null, text }
}

it("logs a source in through the Worker's callback, keeps the grant in D1 sealed, and calls it", async () => {
  const added = await api("POST", "/v1/sources", {
    namespace: "docs",
    kind: "mcp",
    transport: { type: "http", url: upstream.mcpUrl },
  })
  expect(added.status, added.text).toBe(201)
  expect(added.body.source.status).toBe("needs_login")
  const before = await api("POST", "/v1/execute", { code: "return await tools.docs.whoami({})" })
  expect(before.body.result).toMatchObject({ ok: false, error: { code: "auth_required" } })

  const login = await api("POST", "/v1/sources/docs/login")
  expect(login.status, login.text).toBe(200)
  const redirect = await fetch(login.body.authorizationUrl, { redirect: "manual" })
  const callback = redirect.headers.get("location")!
  expect(callback.startsWith(`${worker.url}/v1/oauth/callback?`)).toBe(true)
  const page = await fetch(callback)
  const html = await page.text()
  expect(page.status, html).toBe(200)
  expect(html).toContain("Logged in")

  const source = await api("GET", "/v1/sources/docs")
  expect(source.body.source).toMatchObject({ status: "ready", toolCount: 2, auth: { status: "connected" } })
  const run = await api("POST", "/v1/execute", { code: "return (await tools.docs.add({ a: 2, b: 3 })).data" })
  expect(run.body.result).toEqual({ sum: 5 })

  const rows = JSON.stringify((await worker.db.prepare("select * from source_auth").all()).results)
  expect(rows).toContain("enc:v1:")
  for (const token of upstream.provider.issuedTokens())
    expect(rows + JSON.stringify([added, login, source, run])).not.toContain(token)
})

it("gets an OpenAPI source's client-credentials token from the flow its spec declares, and calls with it", async () => {
  const added = await api("POST", "/v1/sources", {
    namespace: "people",
    kind: "openapi",
    spec: { url: machine.api.specUrl },
    auth: { oidcLogin: { grant: "client_credentials", clientId: "worker-m2m", clientSecret: "worker-machine-secret" } },
  })
  expect(added.status, added.text).toBe(201)
  expect(added.body.source).toMatchObject({ status: "ready", toolCount: 1, auth: { status: "connected" } })
  const run = await api("POST", "/v1/execute", { code: "return (await tools.people.whoami({})).data" })
  expect(run.body.result).toMatchObject({ sub: "worker-m2m", aud: machine.api.apiUrl, scope: "api:read" })
  const rows = JSON.stringify((await worker.db.prepare("select * from source_auth").all()).results)
  expect(rows).not.toContain("worker-machine-secret")
  expect(added.text + run.text).not.toContain("worker-machine-secret")
})
