/**
 * /v1/keys over stand-in services: core's key service on a map, the app in process. The Node host's own test is
 * apps/server/test/access/keys-routes.test.ts.
 */
import { expect, it } from "vitest"
import * as Auth from "@switchboard/core/auth"
import type { AppOptions } from "../src/app.js"
import { memoryKeys, stubApp } from "./stub-app.js"

const ADMIN = "sb_admin-key-of-the-test"

const keyedApp = async (options: AppOptions = {}) => {
  const row = {
    id: "a",
    name: "ops",
    hash: await Auth.hashKey(ADMIN),
    scopes: ["admin"],
    createdAt: 0,
    revokedAt: null,
  }
  return stubApp(options, { keys: memoryKeys([row], () => Date.UTC(2026, 0, 2)) })
}

const call = (app: ReturnType<typeof stubApp>, method: string, path: string, key?: string, body?: string) =>
  app.request(`http://127.0.0.1${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body,
  })

it("creates a key shown once, lists keys without secrets or hashes, revokes by id", async () => {
  const app = await keyedApp()
  const created = await call(app, "POST", "/v1/keys", ADMIN, JSON.stringify({ name: " ci ", scopes: ["read"] }))
  expect(created.status).toBe(201)
  const { key, secret } = (await created.json()) as any
  expect(secret).toMatch(/^sb_[A-Za-z0-9_-]{43}$/)
  expect(key).toEqual({
    id: expect.any(String),
    name: "ci",
    scopes: ["read"],
    scope: "read",
    createdAt: "2026-01-02T00:00:00.000Z",
    revokedAt: null,
  })
  expect((await call(app, "GET", "/v1/sources", secret)).status).toBe(200)

  const listed = await call(app, "GET", "/v1/keys", ADMIN)
  const text = await listed.text()
  expect(JSON.parse(text).keys.map((k: { name: string }) => k.name)).toEqual(["ops", "ci"])
  expect(text).not.toContain(secret.slice(3))
  expect(text).not.toContain(await Auth.hashKey(secret))
  expect(text).not.toContain("hash")

  expect((await call(app, "DELETE", `/v1/keys/${key.id}`, ADMIN)).status).toBe(204)
  expect((await call(app, "DELETE", `/v1/keys/${key.id}`, ADMIN)).status).toBe(204)
  expect((await call(app, "GET", "/v1/sources", secret)).status).toBe(401)
  const missing = await call(app, "DELETE", "/v1/keys/no-such-key", ADMIN)
  expect(missing.status).toBe(404)
  expect(await missing.json()).toEqual({ error: { code: "not_found", message: 'no key "no-such-key"' } })
})

it("checks the body: each mistake is 400 with a message naming the field and the scopes", async () => {
  const app = await keyedApp()
  const refused = async (body: string) => {
    const response = await call(app, "POST", "/v1/keys", ADMIN, body)
    expect(response.status, body).toBe(400)
    return ((await response.json()) as any).error
  }
  expect(await refused(JSON.stringify({ scopes: ["read"] }))).toEqual({
    code: "invalid_request",
    message: '"name" must be a string of 1 to 200 characters naming who or what uses the key',
  })
  expect(await refused(JSON.stringify({ name: "  ", scopes: ["read"] }))).toMatchObject({
    message: '"name" must be a string of 1 to 200 characters naming who or what uses the key',
  })
  expect(await refused(JSON.stringify({ name: "x", scopes: ["read", "root"] }))).toEqual({
    code: "invalid_request",
    message: 'unknown scope "root"; the scopes are read, execute, admin',
  })
  expect((await refused(JSON.stringify({ name: "x", scopes: [] }))).message).toBe(
    '"scopes" must be a non-empty array of scope names: read, execute, admin',
  )
  expect((await refused(JSON.stringify({ name: "x", scopes: "admin" }))).message).toBe(
    '"scopes" must be a non-empty array of scope names: read, execute, admin',
  )
  expect((await refused(JSON.stringify([]))).message).toBe(
    'the body must be a JSON object: {"name": "...", "scopes": ["execute"]}',
  )
  expect(await refused("{name: ci}")).toMatchObject({ code: "invalid_json" })
  // nothing was made by any of them
  const listed = (await (await call(app, "GET", "/v1/keys", ADMIN)).json()) as any
  expect(listed.keys).toHaveLength(1)
})

it("on a server that checks no key, /v1/keys refuses with 403 before reading the body, in the host's words", async () => {
  const app = stubApp({ keysHint: "On the host: `switchboard keys create <name> --scope <scope>`." })
  for (const [method, path, body] of [
    ["POST", "/v1/keys", JSON.stringify({ name: "x", scopes: ["admin"] })],
    ["POST", "/v1/keys", "not json"],
    ["GET", "/v1/keys", undefined],
    ["DELETE", "/v1/keys/k1", undefined],
  ] as const) {
    const response = await call(app, method, path, undefined, body)
    expect(response.status, `${method} ${path}`).toBe(403)
    expect(await response.json()).toEqual({
      error: {
        code: "forbidden",
        message:
          "this server does not check API keys (every caller is admin), so it does not manage them over HTTP: a key made here would not be checked here. " +
          "A server that requires keys manages them with /v1/keys and an admin key. On the host: `switchboard keys create <name> --scope <scope>`.",
      },
    })
  }
})

it("the 401 names POST /v1/keys on every host, and a host's own way only when it gives one", async () => {
  const plain = await call(await keyedApp(), "GET", "/v1/keys")
  expect(plain.status).toBe(401)
  expect(((await plain.json()) as any).error.message).toBe(
    "this server needs an API key: send Authorization: Bearer <key>. An admin key creates keys with POST /v1/keys.",
  )
  const hinted = await call(await keyedApp({ keysHint: "Ask the operator." }), "GET", "/v1/keys")
  expect(((await hinted.json()) as any).error.message).toMatch(/POST \/v1\/keys\. Ask the operator\.$/)
})
