/**
 * The request log of a real `switchboard serve` process (issue 17 §3): one JSON line per request on stderr, with the
 * method, the route pattern, the status, the duration, the execution id, the key id (never the key) and the error
 * code; `--log-format pretty` for people; a wrong flag value stops the start.
 */
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createHost } from "../../src/compose.js"
import { memoryLogger, tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

const folder = tempDir()
const db = join(folder.dir, "catalog.db")
let agent: { id: string; key: string }
let admin: { id: string; key: string }
beforeAll(async () => {
  const host = await createHost({ db, runtime: "in-thread", logger: memoryLogger().logger })
  agent = await host.keys.create("agent", ["execute"])
  admin = await host.keys.create("ops", ["admin"])
  await host.close()
})
afterAll(() => folder.remove())

const ask = async (url: string, method: string, path: string, key?: string, body?: unknown) => {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

it("writes one JSON line per request: route pattern, status, duration, execution id, key id and error code, never the key", async () => {
  const server = await spawnServe(["--db", db, "--require-key", "--workers", "1"])
  let executionId: string
  try {
    const ran = await ask(server.url, "POST", "/v1/execute", agent.key, { code: "return 1 + 1" })
    executionId = ran.body.executionId
    expect(ran.status).toBe(200)
    expect((await ask(server.url, "POST", "/v1/execute", agent.key, { code: "throw new Error('no')" })).status).toBe(
      200,
    )
    expect((await ask(server.url, "GET", `/v1/executions/${executionId}`, agent.key)).status).toBe(200)
    expect((await ask(server.url, "GET", "/v1/sources")).status).toBe(401)
    expect((await ask(server.url, "GET", "/metrics", agent.key)).status).toBe(403)
    expect((await ask(server.url, "GET", "/v1/no-such-route", admin.key)).status).toBe(404)
  } finally {
    // lines gathered for a moment are written at exit
    await server.stop()
  }
  const stderr = server.stderr()
  const lines = stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
  const requests = lines.filter((line) => line.message === "request")
  const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  const common = { level: "info", time, durationMs: expect.any(Number) }
  expect(requests).toEqual([
    { ...common, message: "request", method: "POST", route: "/v1/execute", status: 200, executionId, keyId: agent.id },
    {
      ...common,
      message: "request",
      method: "POST",
      route: "/v1/execute",
      status: 200,
      executionId: expect.any(String),
      keyId: agent.id,
      errorCode: "runtime_error",
    },
    {
      ...common,
      message: "request",
      method: "GET",
      route: "/v1/executions/:id",
      status: 200,
      executionId,
      keyId: agent.id,
    },
    { ...common, message: "request", method: "GET", route: "/v1/sources", status: 401, errorCode: "unauthorized" },
    {
      ...common,
      message: "request",
      method: "GET",
      route: "/metrics",
      status: 403,
      keyId: agent.id,
      errorCode: "forbidden",
    },
    {
      ...common,
      message: "request",
      method: "GET",
      route: null,
      status: 404,
      keyId: admin.id,
      errorCode: "not_found",
    },
  ])
  // every line on stderr is one JSON object, the host's own events in the request lines' shape, but for the
  // command's own notices at its start (serve.ts: "switchboard: every route but /healthz and /readyz needs an API key …")
  expect(
    stderr.split("\n").filter((line) => line !== "" && !line.startsWith("{") && !line.startsWith("switchboard: ")),
  ).toEqual([])
  expect(stderr).not.toContain(agent.key)
  expect(stderr).not.toContain(admin.key)
})

it("--log-format pretty writes a line for people", async () => {
  const server = await spawnServe(["--db", db, "--require-key", "--workers", "1", "--log-format", "pretty"])
  try {
    expect((await ask(server.url, "POST", "/v1/execute", agent.key, { code: "return 1" })).status).toBe(200)
  } finally {
    await server.stop()
  }
  expect(server.stderr()).toMatch(
    new RegExp(
      `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  POST /v1/execute 200 [\\d.]+ ms execution=\\S+ key=${agent.id}$`,
      "m",
    ),
  )
  expect(server.stderr()).not.toContain(agent.key)
})

it("refuses a log level or format it does not know, naming the choices", async () => {
  const run = await runCli(["serve", "--db", db, "--log-level", "loud"])
  expect(run.status).toBe(2)
  expect(run.stderr).toContain('--log-level must be one of fatal, error, warn, info, debug, trace, silent (got "loud")')
})
