/** The table of what each route needs (src/scopes.ts, from the routes' definitions), and the middleware that applies it. */
import { expect, it } from "vitest"
import { openApiDocument } from "../src/index.js"
import { DEFAULT_ROUTE_SCOPE, mcpToolScopes, requiredScope, routeScopes } from "../src/scopes.js"
import { keyRow, memoryKeys, stubApp } from "./stub-app.js"

it("names the scope of every route, and of routes still to come: any change under /v1/sources is admin", () => {
  expect(requiredScope("GET", "/healthz")).toBeNull()
  expect(requiredScope("GET", "/readyz")).toBeNull()
  expect(requiredScope("GET", "/v1/openapi.json")).toBeNull()
  expect(requiredScope("GET", "/v1/sources")).toBe("read")
  expect(requiredScope("HEAD", "/v1/sources")).toBe("read")
  for (const [method, path] of [
    ["POST", "/v1/sources"],
    ["POST", "/v1/sources/x/sync"],
    ["DELETE", "/v1/sources/x"],
    ["PATCH", "/v1/sources/x"],
    ["PUT", "/v1/sources/x"],
  ]) {
    expect(requiredScope(method!, path!), `${method} ${path}`).toBe("admin")
  }
  expect(requiredScope("GET", "/v1/tools")).toBe("read")
  expect(requiredScope("GET", "/v1/tools/demo.add")).toBe("read")
  expect(requiredScope("POST", "/v1/describe")).toBe("execute")
  expect(requiredScope("POST", "/v1/execute")).toBe("execute")
  expect(requiredScope("GET", "/v1/executions")).toBe("read")
  expect(requiredScope("GET", "/v1/executions/e1")).toBe("read")
  expect(requiredScope("GET", "/v1/executions/e1/output")).toBe("read")
  expect(requiredScope("POST", "/mcp")).toBeNull()
  for (const [method, path] of [
    ["POST", "/v1/keys"],
    ["GET", "/v1/keys"],
    ["HEAD", "/v1/keys"],
    ["DELETE", "/v1/keys/k1"],
  ]) {
    expect(requiredScope(method!, path!), `${method} ${path}`).toBe("admin")
  }
  // named by each route, not left to the default
  expect(routeScopes.filter((rule) => rule.path.startsWith("/v1/keys"))).toEqual([
    { method: "POST", path: "/v1/keys", scope: "admin" },
    { method: "GET", path: "/v1/keys", scope: "admin" },
    { method: "DELETE", path: "/v1/keys/:id", scope: "admin" },
  ])
  expect(routeScopes.filter((rule) => rule.path === "/metrics")).toEqual([
    { method: "GET", path: "/metrics", scope: "admin" },
  ])
  // a route nobody wrote a rule for is closed
  expect(requiredScope("POST", "/v1/not-written-yet")).toBe(DEFAULT_ROUTE_SCOPE)
  expect(requiredScope("GET", "/v1/sourcesx")).toBe("admin")
  expect(DEFAULT_ROUTE_SCOPE).toBe("admin")
  for (const path of ["/v1/policies", "/v1/policies/p1", "/v1/approvals", "/v1/approvals/a1"])
    for (const method of ["GET", "POST", "DELETE"])
      expect(requiredScope(method, path), `${method} ${path}`).toBe("admin")
  expect(Object.keys(mcpToolScopes).sort()).toEqual(["describe", "execute", "grep_output", "read_output", "resume"])
  expect(mcpToolScopes.resume).toBe("execute")
})

it("every operation in the OpenAPI document states the scope the table gives its route", () => {
  for (const [path, item] of Object.entries(openApiDocument().paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { security?: unknown }>)) {
      const scope = requiredScope(method, path.replace(/\{(\w+)\}/g, "x"))
      const expected = path === "/healthz" || path === "/readyz" ? [] : [{}, { apiKey: scope === null ? [] : [scope] }]
      expect(operation.security, `${method} ${path}`).toEqual(expected)
    }
  }
})

const keys = {
  ...memoryKeys(),
  verify: async (token: string) =>
    ({
      sb_read: keyRow("r", ["read"]),
      sb_exec: keyRow("x", ["execute"]),
      sb_admin: keyRow("a", ["*"]),
      sb_none: keyRow("n", []),
    })[token] ?? null,
}
const app = () => stubApp({}, { keys })
const ask = (method: string, path: string, key: string, body?: unknown) =>
  app().request(`http://127.0.0.1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

it("refuses a key without the route's scope with 403 naming the scope; an unknown route is 404 for every key", async () => {
  const refused = await ask("POST", "/v1/sources", "sb_exec", {
    namespace: "x",
    kind: "mcp",
    transport: { type: "stdio", command: "sh", args: ["-c", "touch /tmp/pwned"] },
  })
  expect(refused.status).toBe(403)
  expect(await refused.json()).toEqual({
    error: { code: "forbidden", message: 'this route needs the "admin" scope; this key has: execute' },
  })
  expect((await ask("POST", "/v1/sources", "sb_admin", { namespace: "x" })).status).toBe(201)
  expect((await ask("POST", "/v1/execute", "sb_read", { code: "1" })).status).toBe(403)
  expect((await ask("POST", "/v1/execute", "sb_exec", { code: "1" })).status).toBe(200)
  expect(((await (await ask("GET", "/v1/sources", "sb_none")).json()) as any).error.message).toBe(
    'this route needs the "read" scope; this key has: no scope',
  )
  for (const key of ["sb_read", "sb_exec", "sb_admin"]) {
    expect((await ask("GET", "/v1/nothing-here", key)).status, key).toBe(404)
    expect((await ask("PUT", "/v1/tools/x", key)).status, key).toBe(404)
  }
  expect((await ask("GET", "/v1/sources", "sb_bogus")).status).toBe(401)
})
