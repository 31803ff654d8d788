/** The request log's entries (src/request-log.ts) and GET /metrics, over stand-in services. */
import { expect, it } from "vitest"
import type { RequestLogEntry } from "../src/index.js"
import { keyRow, memoryKeys, stubApp } from "./stub-app.js"

const keys = {
  ...memoryKeys(),
  verify: async (token: string) =>
    ({ sb_secret_exec: keyRow("key-x", ["execute"]), sb_secret_admin: keyRow("key-a", ["admin"]) })[token] ?? null,
}

const logged = () => {
  const entries: RequestLogEntry[] = []
  const metrics = async () => ({ contentType: "text/plain; version=0.0.4", body: "switchboard_up 1\n" })
  const app = stubApp({ requestLog: (entry) => void entries.push(entry), metrics }, { keys })
  const ask = async (method: string, path: string, key?: string, body?: unknown) => {
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
    if (body !== undefined) headers["content-type"] = "application/json"
    const response = await app.request(`http://127.0.0.1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    await response.arrayBuffer()
    return entries.at(-1)!
  }
  return { ask, entries }
}

it("logs each request once: method, route pattern, status, duration, key id and execution id, never the key", async () => {
  const { ask, entries } = logged()
  const executed = await ask("POST", "/v1/execute", "sb_secret_exec", { code: "return 1" })
  expect(executed).toEqual({
    method: "POST",
    route: "/v1/execute",
    status: 200,
    durationMs: expect.any(Number),
    executionId: "e1",
    keyId: "key-x",
  })
  // the pattern, not the path with its id
  expect(await ask("GET", "/v1/executions/e-123", "sb_secret_exec")).toMatchObject({
    route: "/v1/executions/:id",
    status: 404,
    executionId: "e-123",
    errorCode: "not_found",
    keyId: "key-x",
  })
  expect(await ask("GET", "/v1/executions/e-123/output", "sb_secret_admin")).toMatchObject({
    route: "/v1/executions/:id/output",
    status: 404,
    executionId: "e-123",
    errorCode: "not_found",
    keyId: "key-a",
  })
  expect(entries).toHaveLength(3)
  expect(JSON.stringify(entries)).not.toContain("sb_secret")
})

it("names the execution an MCP execute ran", async () => {
  const { entries } = logged()
  const app = stubApp({ requestLog: (entry) => void entries.push(entry) }, { keys })
  const response = await app.request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      authorization: "Bearer sb_secret_exec",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "execute", arguments: { code: "return 1" } },
    }),
  })
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ result: { _meta: { "switchboard/execution": { executionId: "e1" } } } })
  expect(entries).toEqual([
    { method: "POST", route: "/mcp", status: 200, durationMs: expect.any(Number), executionId: "e1", keyId: "key-x" },
  ])
})

it("names the error code of every error answer, from middleware and from routes alike", async () => {
  const { ask } = logged()
  expect(await ask("GET", "/v1/sources")).toMatchObject({
    route: "/v1/sources",
    status: 401,
    errorCode: "unauthorized",
  })
  expect(await ask("POST", "/v1/execute", "sb_secret_exec", { nope: 1 })).toMatchObject({
    status: 400,
    errorCode: "invalid_request",
  })
  expect(await ask("GET", "/v1/no-such-route", "sb_secret_exec")).toMatchObject({
    route: null,
    status: 404,
    errorCode: "not_found",
  })
  expect((await ask("GET", "/healthz")).errorCode).toBeUndefined()
})

it("serves GET /metrics to an admin key only", async () => {
  const { ask } = logged()
  expect(await ask("GET", "/metrics", "sb_secret_exec")).toMatchObject({ status: 403, errorCode: "forbidden" })
  expect(await ask("GET", "/metrics", "sb_secret_admin")).toMatchObject({ route: "/metrics", status: 200 })
  const app = stubApp({}, { keys })
  const none = await app.request("http://127.0.0.1/metrics", { headers: { authorization: "Bearer sb_secret_admin" } })
  // a host that keeps no metrics has no such route
  expect(none.status).toBe(404)
})
