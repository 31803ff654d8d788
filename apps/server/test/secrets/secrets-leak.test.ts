/**
 * Issue 13 (ARCHITECTURE.md: safety): a source's secret never appears in an API response, a log line, an execution record,
 * a telemetry row or an error message, even from tools built to hand it back: one that echoes its env (stdio),
 * one that echoes the request's headers and URL (HTTP), and upstreams that put them in their errors.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, expect, it } from "vitest"
import { echoEnvServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import { postMcpExecute } from "../support/mcp-clients.js"

const ENV_SECRET = "env-5ecret-a1b2c3d4"
const HEADER_SECRET = "hdr-5ecret-e5f6a7b8"
const KEY_SECRET = "key-5ecret-77aa88bb"
const QUERY_SECRET = "qry-5ecret-0912abcd"
const SECRETS = [ENV_SECRET, HEADER_SECRET, KEY_SECRET, QUERY_SECRET]

const expectNone = (what: string, value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value)
  for (const secret of SECRETS) expect(text, `${what} holds ${secret}`).not.toContain(secret)
}

const { logger, lines } = memoryLogger()
let server: TestServer
let upstream: EchoHeadersServer
beforeAll(async () => {
  upstream = await startEchoHeadersServer()
  server = await startTestServer({ allowStdio: true, logger })
  const env = await server.request("POST", "/v1/sources", {
    namespace: "envecho",
    kind: "mcp",
    transport: {
      type: "stdio",
      command: process.execPath,
      args: ["-e", echoEnvServerScript],
      env: { ECHO_TOKEN: ENV_SECRET },
    },
  })
  expect(env.status, JSON.stringify(env.body)).toBe(201)
  expectNone("the add answer", env.body)
  const http = await server.request("POST", "/v1/sources", {
    namespace: "hdrecho",
    kind: "mcp",
    transport: {
      type: "http",
      url: `${upstream.url}?api_key=${QUERY_SECRET}`,
      headers: { authorization: `Bearer ${HEADER_SECRET}`, "x-api-key": KEY_SECRET },
    },
  })
  expect(http.status, JSON.stringify(http.body)).toBe(201)
  expectNone("the add answer", http.body)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

const CALL_ALL = `
  const results = {
    env: await tools.envecho.echo({}),
    envFail: await tools.envecho.fail({}),
    headers: await tools.hdrecho.echo({}),
    headersFail: await tools.hdrecho.fail({}),
    httpError: await tools.hdrecho.http_error({}),
  }
  console.log(JSON.stringify(results))
`

it("tools that echo their env and headers, and upstreams that fail with them: the script, the answer and its logs get <redacted>", async () => {
  const run = await server.execute(`${CALL_ALL} return results`)
  expect(run.ok, JSON.stringify(run)).toBe(true)
  // the upstreams really were given the secrets, and really sent them back
  expect(JSON.stringify(upstream.received)).toContain(HEADER_SECRET)
  expect(run.result.env).toMatchObject({ ok: true, data: { env: { ECHO_TOKEN: "<redacted>" } } })
  expect(run.result.headers.ok).toBe(true)
  expect(run.result.headers.data.headers).toMatchObject({ authorization: "<redacted>", "x-api-key": "<redacted>" })
  expect(run.result.headers.data.url).toContain("api_key=<redacted>")
  expect(run.result.envFail).toMatchObject({ ok: false, error: { code: "upstream_error" } })
  expect(run.result.envFail.error.message).toContain("<redacted>")
  expect(run.result.headersFail.error.message).toContain("<redacted>")
  expect(run.result.httpError.ok).toBe(false)
  expectNone("the execute answer", run)

  const failed = await server.execute(`${CALL_ALL} throw new Error(JSON.stringify(results))`)
  expect(failed.ok).toBe(false)
  expect(failed.error.message).toContain("<redacted>")
  expectNone("the failed execute answer", failed)

  for (const id of [run.executionId, failed.executionId]) {
    expectNone("the stored execution", (await server.request("GET", `/v1/executions/${id}`)).body)
  }
  expectNone("the stored output", await (await fetch(`${server.url}/v1/executions/${run.executionId}/output`)).text())
  expectNone("the source listing", (await server.request("GET", "/v1/sources")).body)
  expectNone("the catalog", (await server.request("GET", "/v1/tools")).body)
  expectNone("the describe answer", (await server.request("POST", "/v1/describe", { query: "echo" })).body)
  expectNone("the re-sync answer", (await server.request("POST", "/v1/sources/hdrecho/sync")).body)
  expectNone("a log line", lines)
}, 60_000)

/** a secret's spellings that a tool may echo: base64 and base64url, hex in both cases, every byte percent-encoded */
const spellingsOf = (secret: string) => {
  const bytes = Buffer.from(secret)
  return [
    bytes.toString("base64"),
    bytes.toString("base64url"),
    bytes.toString("hex"),
    bytes.toString("hex").toUpperCase(),
    [...bytes].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join(""),
    // the secret inside a longer base64 text, at the three byte offsets, less the characters its neighbours share
    Buffer.from(`user:${secret}`).toString("base64").slice(8, -4),
    Buffer.from(`ab${secret}!`).toString("base64").slice(4, -4),
  ]
}

it("a tool that echoes the secret base64-, base64url-, hex- and percent-encoded: no spelling reaches the script, the answer or the record", async () => {
  const run = await server.execute("return await tools.envecho.echo_encoded({})")
  expect(run.ok, JSON.stringify(run)).toBe(true)
  expect(run.result.ok, JSON.stringify(run.result)).toBe(true)
  const spelled = run.result.data.ECHO_TOKEN
  // every field was there, and each one's secret was replaced
  expect(Object.keys(spelled).sort()).toEqual(["HEX", "base64", "base64url", "basicAuth", "hex", "percent", "shifted"])
  for (const [name, value] of Object.entries(spelled)) expect(value, name).toContain("<redacted>")
  const stored = await server.request("GET", `/v1/executions/${run.executionId}`)
  for (const spelling of spellingsOf(ENV_SECRET)) {
    expect(JSON.stringify(run), `the answer holds ${spelling}`).not.toContain(spelling)
    expect(JSON.stringify(stored.body), `the record holds ${spelling}`).not.toContain(spelling)
  }
}, 60_000)

it("no row of the database holds a secret: sources, tools, shapes, executions, tool calls", async () => {
  await server.execute(`${CALL_ALL} return 1`)
  const db = new Database(server.dbPath, { readonly: true, fileMustExist: true })
  try {
    for (const table of ["sources", "tools", "tool_shapes", "executions", "tool_calls"]) {
      const rows = db.prepare(`select * from ${table}`).all()
      expect(rows.length, table).toBeGreaterThan(0)
      expectNone(`the ${table} table`, rows)
    }
  } finally {
    db.close()
  }
})

it("over MCP: execute's text and its logs carry no secret", async () => {
  const response = await postMcpExecute(server.url, { code: `${CALL_ALL} return results` })
  const text = await response.text()
  expect(text).toContain("<redacted>")
  expectNone("the MCP answer", text)
})
