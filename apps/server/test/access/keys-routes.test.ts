/**
 * API keys over HTTP (/v1/keys), on a real server with keys: an admin key makes, lists and revokes keys; a key
 * made so works for its scope and not beyond, and stops at its revocation; no other key may touch /v1/keys. On a
 * loopback server without keys, /v1/keys refuses. The first admin key is made the CLI's way (host.keys).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Auth from "@switchboard/core/auth"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const call = async (server: TestServer, key: string | null, method: string, path: string, body?: string) => {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body,
  })
  const text = await response.text()
  return { status: response.status, text, body: text ? JSON.parse(text) : null }
}

describe("a server with keys", () => {
  let server: TestServer
  let admin: string
  const ask = (key: string | null, method: string, path: string, body?: unknown) =>
    call(server, key, method, path, body === undefined ? undefined : JSON.stringify(body))

  beforeAll(async () => {
    server = await startTestServer({ requireKey: true })
    admin = (await server.host.keys.create("ops", ["admin"])).key
  })
  afterAll(() => server?.stop())

  it("an admin key makes a key that works for its scope and not beyond, lists it without secrets, and revokes it", async () => {
    const made = await ask(admin, "POST", "/v1/keys", { name: "agent", scopes: ["read"] })
    expect(made.status, made.text).toBe(201)
    const { key, secret } = made.body
    expect(secret).toMatch(/^sb_[A-Za-z0-9_-]{43}$/)
    expect(key).toEqual({
      id: expect.any(String),
      name: "agent",
      scopes: ["read"],
      scope: "read",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      revokedAt: null,
    })
    expect(Math.abs(Date.parse(key.createdAt) - Date.now())).toBeLessThan(60_000)

    // read: the catalog yes; running a script, adding a source or making keys no
    expect((await ask(secret, "GET", "/v1/sources")).status).toBe(200)
    expect((await ask(secret, "GET", "/v1/tools")).status).toBe(200)
    const execute = await ask(secret, "POST", "/v1/execute", { code: "return 1" })
    expect(execute.status).toBe(403)
    expect(execute.body.error.message).toBe('this route needs the "execute" scope; this key has: read')
    expect((await ask(secret, "POST", "/v1/keys", { name: "mine", scopes: ["admin"] })).status).toBe(403)

    // the same store as the CLI's: the host's key service sees it, by its hash only
    expect((await server.host.keys.list()).find((row) => row.id === key.id)).toMatchObject({
      name: "agent",
      hash: await Auth.hashKey(secret),
    })

    const listed = await ask(admin, "GET", "/v1/keys")
    expect(listed.status).toBe(200)
    expect(listed.body.keys.map((k: { name: string }) => k.name)).toEqual(["ops", "agent"])
    expect(listed.body.keys[1]).toEqual(key)
    expect(listed.text).not.toContain(secret.slice(3))
    expect(listed.text).not.toContain(await Auth.hashKey(secret))
    expect(listed.text).not.toContain(admin.slice(3))
    expect(listed.text).not.toContain('"hash"')

    const revoked = await ask(admin, "DELETE", `/v1/keys/${key.id}`)
    expect(revoked.status).toBe(204)
    expect(revoked.text).toBe("")
    const refused = await ask(secret, "GET", "/v1/sources")
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe("unauthorized")
    const after = (await ask(admin, "GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === key.id)
    expect(after.revokedAt).toEqual(expect.any(String))

    // again: no error, and the first revocation's time stays
    expect((await ask(admin, "DELETE", `/v1/keys/${key.id}`)).status).toBe(204)
    expect((await ask(admin, "GET", "/v1/keys")).body.keys.find((k: { id: string }) => k.id === key.id)).toEqual(after)
    const unknown = await ask(admin, "DELETE", "/v1/keys/no-such-key")
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: { code: "not_found", message: 'no key "no-such-key"' } })
  })

  it("an execute key made over HTTP runs scripts but cannot add a source", async () => {
    const { secret } = (await ask(admin, "POST", "/v1/keys", { name: "runner", scopes: ["read", "execute"] })).body
    const ran = await ask(secret, "POST", "/v1/execute", { code: "return 6 * 7" })
    expect(ran.status).toBe(200)
    expect(ran.body.result).toBe(42)
    expect((await ask(secret, "POST", "/v1/sources", { namespace: "x", kind: "mcp" })).status).toBe(403)
  })

  it("a read or execute key gets 403 on every /v1/keys route, and nothing changes", async () => {
    const before = (await ask(admin, "GET", "/v1/keys")).body.keys
    const victim = before[0].id
    for (const scope of ["read", "execute"] as const) {
      const { secret } = (await ask(admin, "POST", "/v1/keys", { name: scope, scopes: [scope] })).body
      for (const [method, path, body] of [
        ["POST", "/v1/keys", { name: "escalate", scopes: ["admin"] }],
        ["GET", "/v1/keys", undefined],
        ["DELETE", `/v1/keys/${victim}`, undefined],
      ] as const) {
        const response = await ask(secret, method, path, body)
        expect(response.status, `${scope} ${method} ${path}`).toBe(403)
        expect(response.body).toEqual({
          error: { code: "forbidden", message: `this route needs the "admin" scope; this key has: ${scope}` },
        })
      }
    }
    const after = (await ask(admin, "GET", "/v1/keys")).body.keys
    expect(after.map((k: { name: string }) => k.name)).toEqual([
      ...before.map((k: { name: string }) => k.name),
      "read",
      "execute",
    ])
    expect(after.every((k: { name: string }) => k.name !== "escalate")).toBe(true)
    expect(after[0].revokedAt).toBeNull()
    // and without a key at all: 401, naming POST /v1/keys and this host's command line
    const anonymous = await ask(null, "GET", "/v1/keys")
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.message).toMatch(/POST \/v1\/keys.*switchboard keys create/)
  })

  it("a bad body is 400 with a message saying what to change, and makes no key", async () => {
    const count = async () => (await ask(admin, "GET", "/v1/keys")).body.keys.length
    const before = await count()
    const bad = async (body: string) => {
      const response = await call(server, admin, "POST", "/v1/keys", body)
      expect(response.status, body).toBe(400)
      return response.body.error
    }
    expect(await bad(JSON.stringify({ scopes: ["read"] }))).toEqual({
      code: "invalid_request",
      message: '"name" must be a string of 1 to 200 characters naming who or what uses the key',
    })
    expect(await bad(JSON.stringify({ name: "x", scopes: ["write"] }))).toEqual({
      code: "invalid_request",
      message: 'unknown scope "write"; the scopes are read, execute, admin',
    })
    expect(await bad(JSON.stringify({ name: "x", scopes: [] }))).toEqual({
      code: "invalid_request",
      message: '"scopes" must be a non-empty array of scope names: read, execute, admin',
    })
    expect(await bad(JSON.stringify({ name: "x" }))).toEqual({
      code: "invalid_request",
      message: '"scopes" must be a non-empty array of scope names: read, execute, admin',
    })
    expect(await bad('{"name": "x", "scopes": ["read"]')).toEqual({
      code: "invalid_json",
      message: expect.stringMatching(/^the body must be JSON: /),
    })
    expect(await bad("")).toEqual({ code: "invalid_json", message: "the body must be JSON: the body is empty" })
    expect(await count()).toBe(before)
  })
})

it("a loopback server without keys refuses /v1/keys with 403, naming the command line instead", async () => {
  const open = await startTestServer()
  try {
    for (const [method, path, body] of [
      ["POST", "/v1/keys", JSON.stringify({ name: "x", scopes: ["admin"] })],
      ["GET", "/v1/keys", undefined],
      ["DELETE", "/v1/keys/x", undefined],
    ] as const) {
      const response = await call(open, null, method, path, body)
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(response.body.error.code).toBe("forbidden")
      expect(response.body.error.message).toMatch(/^this server does not check API keys/)
      expect(response.body.error.message).toContain("switchboard keys create <name> --scope <scope>")
    }
    expect(await open.host.keys.list()).toEqual([])
  } finally {
    await open.stop()
  }
})
