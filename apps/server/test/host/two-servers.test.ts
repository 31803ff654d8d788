/**
 * Two server processes behind one Postgres, as behind a load balancer: a source added through one is callable
 * through the other, syncs started on both at once leave one consistent catalog, and both write executions.
 */
import postgres from "postgres"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createTestDatabase, fixtureCommand, contractToolNames } from "@switchboard/fixtures"
import type { TestDatabase } from "@switchboard/fixtures"
import { TEST_SECRET_KEY } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

type ServerProcess = ServeProcess

/** `switchboard serve` in its own process, on an ephemeral port, with the key every server of the catalog shares. */
const spawnServer = (db: string): Promise<ServerProcess> =>
  spawnServe(["--db", db, "--allow-stdio"], { env: { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY } })

const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
  const response = await fetch(server.url + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (response.status === 204 ? null : await response.json()) as any }
}

let database: TestDatabase
let a: ServerProcess
let b: ServerProcess
beforeAll(async () => {
  database = await createTestDatabase("switchboard_cluster")
  ;[a, b] = await Promise.all([spawnServer(database.url), spawnServer(database.url)])
}, 60_000)
afterAll(async () => {
  await Promise.all([a, b].map((server) => server?.stop()))
  await database?.drop()
})

it("a source added through one server is callable through the other", async () => {
  const added = await call(a, "POST", "/v1/sources", {
    namespace: "contract",
    kind: "mcp",
    transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
  })
  expect(added.status).toBe(201)
  expect((await call(b, "GET", "/v1/sources")).body.sources.map((s: { namespace: string }) => s.namespace)).toEqual([
    "contract",
  ])
  const response = await call(b, "POST", "/v1/execute", {
    code: `return (await tools.contract.echo({ message: "via b" })).data`,
  })
  expect(response.body).toMatchObject({ ok: true, result: "via b" })
})

it("syncs started on both servers at once leave one consistent catalog", async () => {
  const [syncA, syncB] = await Promise.all([
    call(a, "POST", "/v1/sources/contract/sync"),
    call(b, "POST", "/v1/sources/contract/sync"),
  ])
  expect([syncA.status, syncB.status]).toEqual([200, 200])
  const sql = postgres(database.url, { max: 1, onnotice: () => {} })
  const rows = await sql`select name from tools order by name`
  expect(rows.map((r) => r.name)).toEqual([...contractToolNames].sort())
  await sql.end()
})

it("executions and tool calls written by both servers are all there", async () => {
  const runs = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      call(i % 2 ? a : b, "POST", "/v1/execute", {
        code: `await tools.contract.echo({ message: "${i}" }); return (await tools.contract.echo({ message: "x" })).data`,
      }),
    ),
  )
  for (const run of runs) expect(run.body).toMatchObject({ ok: true, result: "x" })
  for (const run of runs) {
    const record = await call(a, "GET", `/v1/executions/${run.body.executionId}`)
    expect(record.body.execution).toMatchObject({ status: "ok", toolCallCount: 2 })
    expect(record.body.execution.calls).toHaveLength(2)
  }
})
