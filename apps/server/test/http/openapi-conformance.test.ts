/**
 * The OpenAPI document against the running server: every operation is called through the typed client, each
 * request and answer is captured, and each is checked against the schema the served document gives it
 * (./openapi-conformance.ts). A body schema that is wrong, or a route whose answer changed without its schema,
 * fails here. The last test corrupts one schema to show that the check would notice.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { createClient } from "@switchboard/api/client"
import { fixtureCommand, startSdkAuthServer, tinyPngBase64 } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { createConformance } from "./openapi-conformance.js"
import type { Exchange, OpenApi } from "./openapi-conformance.js"

let server: TestServer
let upstream: SdkAuthServer
let document: OpenApi
const exchanges: Exchange[] = []

const parsed = (text: string) => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** fetch, keeping every request and answer it carries */
const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
  const request = new Request(input, init)
  const url = new URL(request.url)
  const sent = request.body ? await request.clone().text() : ""
  const response = await fetch(request)
  const received = await response.clone().text()
  exchanges.push({
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    requestBody: sent ? parsed(sent) : undefined,
    status: response.status,
    mediaType: received ? (response.headers.get("content-type")?.split(";")[0]?.trim() ?? null) : null,
    responseBody: received ? parsed(received) : undefined,
  })
  return response
}

beforeAll(async () => {
  // a server with keys, as one beyond loopback is: /v1/keys is served only there
  server = await startTestServer({ allowStdio: true, requireKey: true })
  const auth = { authorization: `Bearer ${(await server.host.keys.create("conformance", ["admin"])).key}` }
  const client = createClient(server.url, { fetch: recordingFetch, headers: auth })
  const contract = {
    namespace: "contract",
    kind: "mcp",
    transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
  }

  document = (await (await client.v1["openapi.json"].$get()).json()) as unknown as OpenApi
  await client.healthz.$get()
  await client.readyz.$get()

  await client.v1.sources.$post({ json: contract })
  await client.v1.sources.$post({ json: contract }) // 409
  await client.v1.sources.$post({ json: { namespace: "Bad", kind: "mcp" } }) // 400
  await client.v1.sources.$get()
  await client.v1.sources[":namespace"].sync.$post({ param: { namespace: "contract" } })
  await client.v1.sources[":namespace"].$patch({
    param: { namespace: "contract" },
    json: { transport: { env: { A: "b" } } },
  })
  await client.v1.sources.$post({
    json: { namespace: "gone", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } },
  })
  await client.v1.sources[":namespace"].$delete({ param: { namespace: "gone" } })
  await client.v1.sources[":namespace"].$delete({ param: { namespace: "gone" } }) // 404

  // a source behind OAuth: added while it needs a login, logged in through the route and the callback
  upstream = await startSdkAuthServer()
  await client.v1.sources.$post({
    json: { namespace: "docs", kind: "mcp", transport: { type: "http", url: upstream.mcpUrl } },
  })
  const login = await client.v1.sources[":namespace"].login.$post({ param: { namespace: "docs" } })
  const { authorizationUrl } = (await login.json()) as { authorizationUrl: string }
  const callback = (await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location")!
  await recordingFetch(callback)
  await recordingFetch(callback) // 400: its state is spent
  await client.v1.sources[":namespace"].$get({ param: { namespace: "docs" } })
  await client.v1.sources[":namespace"].$get({ param: { namespace: "nope" } }) // 404

  await client.v1.tools.$get({ query: {} })
  await client.v1.tools.$get({ query: { query: "echo", namespace: "contract", limit: "3" } })
  await client.v1.tools.$get({ query: { limit: "1e20" } }) // 400
  await client.v1.tools[":path"].$get({ param: { path: "contract.structured" } })
  await client.v1.tools[":path"].$get({ param: { path: "contract.nope" } }) // 404
  await client.v1.describe.$post({ json: { paths: ["contract.echo", "contract.nope"] } })
  await client.v1.describe.$post({ json: { query: "structured", limit: 2 } })
  await client.v1.describe.$post({ json: {} })

  const ran = await client.v1.execute.$post({
    json: {
      // tool calls for the stored record, and a result past the inline cap, so the answer is `truncated`
      code: `await tools.contract.structured({}); await tools.contract.image({});
        return Array.from({ length: 5000 }, (_, i) => "line " + i).join("\\n")`,
      timeoutMs: 20_000,
      limits: { maxToolCalls: 5 },
    },
  })
  const executionId = ran.status === 200 ? (await ran.json()).executionId! : ""
  await client.v1.execute.$post({ json: { code: "throw new Error('boom')" } })
  await client.v1.execute.$post({
    json: { code: `emit({ type: "image", data: "${tinyPngBase64}", mimeType: "image/png" }); return "drawn"` },
  })
  await client.v1.execute.$post({ json: { code: "return 1", limits: { stackBytes: 1 } } }) // 400

  const page = await client.v1.executions.$get({ query: { limit: "2", status: "ok" } })
  const nextBefore = page.status === 200 ? (await page.json()).nextBefore : undefined
  await client.v1.executions.$get({ query: { before: nextBefore } })
  await client.v1.executions.$get({ query: { limit: "0" } }) // 400
  await client.v1.executions[":id"].$get({ param: { id: executionId } })
  await client.v1.executions[":id"].$get({ param: { id: "nope" } }) // 404
  const output = client.v1.executions[":id"].output
  await output.$get({ param: { id: executionId }, query: {} })
  await output.$get({ param: { id: executionId }, query: { offset: "10", limit: "5", charOffset: "0" } })
  await output.$get({ param: { id: executionId }, query: { grep: "^line 2\\d\\d$" } })
  await output.$get({ param: { id: executionId }, query: { limit: "0" } }) // 400

  const made = await client.v1.keys.$post({ json: { name: "agent", scopes: ["execute"] } })
  const { key, secret } = made.status === 201 ? await made.json() : { key: { id: "" }, secret: "" }
  await client.v1.keys.$post({ json: { name: "agent", scopes: ["root" as "read"] } }) // 400
  await client.v1.keys.$get()
  await createClient(server.url, {
    fetch: recordingFetch,
    headers: { authorization: `Bearer ${secret}` },
  }).v1.keys.$get() // 403
  await client.v1.keys[":id"].$delete({ param: { id: key.id } })
  await client.v1.keys[":id"].$delete({ param: { id: "nope" } }) // 404
  await createClient(server.url, { fetch: recordingFetch }).v1.keys.$get() // 401

  // policies and approvals: a rule that pauses contract.prose, a run that pauses there (202), its approval decided
  const rule = await client.v1.policies.$post({
    json: { pattern: "contract.prose", action: "require_approval", reason: "a greeting needs a person" },
  })
  const ruleId = rule.status === 201 ? (await rule.json()).policy.id : ""
  await client.v1.policies.$post({ json: { action: "maybe" as "allow" } }) // 400
  await client.v1.policies.$get()
  const paused = await client.v1.execute.$post({
    json: {
      code: `console.log("asking"); const r = await tools.contract.prose({ name: "Ada" }); return r.ok ? r.data : r.error.code`,
    },
  })
  const pausedBody = paused.status === 202 ? await paused.json() : null
  const pausedId = pausedBody?.executionId ?? ""
  const approval = pausedBody && "approval" in pausedBody ? pausedBody.approval : { id: "" }
  await client.v1.executions[":id"].$get({ param: { id: pausedId } }) // paused, with its approval
  await client.v1.approvals.$get({ query: {} })
  await client.v1.approvals.$get({ query: { status: "all", limit: "5" } })
  await client.v1.approvals.$get({ query: { status: "nope" as "all" } }) // 400
  await client.v1.approvals[":id"].$get({ param: { id: approval.id } })
  await client.v1.approvals[":id"].$get({ param: { id: "nope" } }) // 404
  const decide = client.v1.approvals[":id"].$post
  await decide({ param: { id: approval.id }, query: { wait: "forever" }, json: { decision: "approve" } }) // 400
  await decide({ param: { id: approval.id }, query: { wait: "30s" }, json: { decision: "approve", note: "fine" } })
  await decide({ param: { id: approval.id }, query: {}, json: { decision: "decline" } }) // 409
  await decide({ param: { id: "nope" }, query: {}, json: { decision: "decline" } }) // 404
  await client.v1.policies[":id"].$delete({ param: { id: ruleId } })
  await client.v1.policies[":id"].$delete({ param: { id: ruleId } }) // 404

  // /mcp takes JSON-RPC, whose shapes the MCP SDK checks; the typed client has no body type for it
  const mcp = { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" }
  const rpc = (message: object) =>
    recordingFetch(`${server.url}/mcp`, { method: "POST", headers: mcp, body: JSON.stringify(message) })
  await rpc({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  })
  await rpc({ jsonrpc: "2.0", method: "notifications/initialized" })
  await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" })
  await client.mcp.$get()
  await client.mcp.$delete()
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

it("every captured request and answer fits the served document", () => {
  const { check } = createConformance(document)
  expect(exchanges.length).toBeGreaterThan(30)
  expect(exchanges.flatMap(check)).toEqual([])
  // /v1/keys answered each status it was meant to, so each was checked
  expect(exchanges.filter((e) => e.path.startsWith("/v1/keys")).map((e) => `${e.method} ${e.status}`)).toEqual([
    "POST 201",
    "POST 400",
    "GET 200",
    "GET 403",
    "DELETE 204",
    "DELETE 404",
    "GET 401",
  ])
})

it("every documented operation was called, and answered a success whose body was checked", () => {
  const { operationOf } = createConformance(document)
  const succeeded = new Set(
    exchanges
      .filter((e) => e.status < 300)
      .map((e) => {
        const found = operationOf(e.method, e.path)
        return found ? `${e.method} ${found.template}` : ""
      }),
  )
  const documented = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  )
  // /mcp GET and DELETE are documented only as their 405
  const notServed = ["GET /mcp", "DELETE /mcp"]
  expect(documented.filter((route) => !succeeded.has(route) && !notServed.includes(route))).toEqual([])
})

it("the approvals operations answered each status they were meant to, so each was checked", () => {
  const seen = (prefix: string) =>
    exchanges.filter((e) => e.path.startsWith(prefix)).map((e) => `${e.method} ${e.status}`)
  expect(seen("/v1/policies")).toEqual(["POST 201", "POST 400", "GET 200", "DELETE 204", "DELETE 404"])
  expect(seen("/v1/approvals")).toEqual([
    "GET 200",
    "GET 200",
    "GET 400",
    "GET 200",
    "GET 404",
    "POST 400",
    "POST 200",
    "POST 409",
    "POST 404",
  ])
  expect(exchanges.filter((e) => e.path === "/v1/execute").map((e) => e.status)).toContain(202)
  const waited = exchanges.find((e) => e.path.startsWith("/v1/approvals/") && e.query.wait === "30s")!
  expect(waited.responseBody).toMatchObject({
    approval: { status: "approved", note: "fine" },
    execution: { status: "ok", resultText: "Hello, Ada! It is sunny." },
  })
})

it("a wrong body schema in the document fails the check, naming the route", () => {
  const wrong = structuredClone(document) as OpenApi & { components: { schemas: Record<string, any> } }
  wrong.components.schemas.Source.properties.toolCount = { type: "string" }
  wrong.components.schemas.ExecuteSuccess.required.push("elapsed")
  wrong.components.schemas.DescribeRequest.properties.limit.maximum = 1
  wrong.components.schemas.Key.properties.createdAt = { type: "integer" }
  wrong.components.schemas.CreateKeyRequest.properties.scopes.items = { enum: ["read"] }
  wrong.components.schemas.ExecutionSummary.properties.resultChars = { type: "string" }
  const problems = exchanges.flatMap(createConformance(wrong).check)
  expect(problems.some((p) => p.startsWith("POST /v1/sources → 201: answer does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("GET /v1/sources → 200: answer does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("POST /v1/execute → 200: answer does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("POST /v1/describe → 200: request body does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("POST /v1/keys → 201: answer does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("GET /v1/keys → 200: answer does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("POST /v1/keys → 201: request body does not fit"))).toBe(true)
  expect(problems.some((p) => p.startsWith("GET /v1/executions → 200: answer does not fit"))).toBe(true)
})
