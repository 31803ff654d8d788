/**
 * Issue 14 §8–9 on a Postgres cluster of the test's own (../support/scratch-postgres.ts), stopped and restarted under a
 * serving server: /readyz names the fault, an execute says whether its record was stored, and once Postgres is
 * back the same server recovers with no restart of its own.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { TEST_SECRET_KEY, memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"
import postgres_ from "postgres"
import { startScratchPostgres } from "../support/scratch-postgres.js"
import type { ScratchPostgres } from "../support/scratch-postgres.js"

let postgres: ScratchPostgres
let server: TestServer
const { logger, lines } = memoryLogger()

beforeAll(async () => {
  postgres = await startScratchPostgres()
  server = await startTestServer({
    dbPath: postgres.url,
    keepDb: true,
    secretKey: TEST_SECRET_KEY,
    logger,
    busyWaitMs: 500,
  })
}, 60_000)

afterAll(async () => {
  await server?.stop()
  postgres?.remove()
})

it("serves and is ready while Postgres is up", async () => {
  expect(await server.request("GET", "/readyz")).toMatchObject({ status: 200, body: { ok: true } })
  const body = await server.execute("return 1")
  expect(body).toMatchObject({ ok: true, stored: true })
  expect((await server.request("GET", `/v1/executions/${body.executionId}`)).status).toBe(200)
})

it("Postgres down: /readyz answers 503 naming it, /healthz still 200, and an execute says its record was not stored", async () => {
  postgres.stop()
  try {
    const started = performance.now()
    const ready = await server.request("GET", "/readyz")
    expect(ready.status).toBe(503)
    expect(ready.body).toMatchObject({ ok: false })
    expect(ready.body.reason).toMatch(/ECONNREFUSED|connect|terminat|shut/i)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect((await server.request("GET", "/healthz")).status).toBe(200)
    const body = await server.execute("return 'in the gap'")
    expect(body).toMatchObject({ ok: true, stored: false, text: "in the gap" })
    expect(body.executionId).toBeUndefined()
    expect(body.warning).toMatch(/not stored/)
    expect(JSON.stringify(lines)).toMatch(/ECONNREFUSED|terminat|shut/i)
  } finally {
    postgres.start()
  }
}, 30_000)

it("Postgres refusing connections: every /readyz names the refusal (ECONNREFUSED) at once, not a wait of 2 s", async () => {
  postgres.stop()
  try {
    // the pool's connections are gone: every probe must make a new one, which is refused
    await server.request("GET", "/readyz")
    for (let probe = 0; probe < 3; probe++) {
      const started = performance.now()
      const ready = await server.request("GET", "/readyz")
      const took = performance.now() - started
      expect({ status: ready.status, reason: ready.body.reason }).toMatchObject({
        status: 503,
        reason: expect.stringMatching(/ECONNREFUSED/),
      })
      expect(took).toBeLessThan(1_500)
    }
  } finally {
    postgres.start()
  }
}, 30_000)

it("Postgres restarted while serving: the same server recovers with no restart, and the record of each execute is stored", async () => {
  postgres.restart()
  const deadline = Date.now() + 10_000
  let ready = await server.request("GET", "/readyz")
  while (ready.status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    ready = await server.request("GET", "/readyz")
  }
  expect(ready).toMatchObject({ status: 200, body: { ok: true } })
  const body = await server.execute("return 'after'")
  expect(body).toMatchObject({ ok: true, stored: true })
  expect((await server.request("GET", `/v1/executions/${body.executionId}`)).body.execution).toMatchObject({
    id: body.executionId,
  })
}, 30_000)

it("a table locked by another session: the record write gives up after the lock wait, and the execute says its record was not stored", async () => {
  const locker = await startTestServerLockHolder(postgres.url)
  try {
    const started = performance.now()
    const body = await server.execute("return 'while locked'")
    expect(body).toMatchObject({ ok: true, stored: false, text: "while locked" })
    expect(body.executionId).toBeUndefined()
    expect(body.warning).toMatch(/lock timeout/i)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect((await server.request("GET", "/healthz")).status).toBe(200)
  } finally {
    await locker.release()
  }
  expect(await server.execute("return 'unlocked'")).toMatchObject({ ok: true, stored: true })
}, 30_000)

/** Another session that holds an exclusive lock on the executions table until released. */
const startTestServerLockHolder = async (url: string) => {
  const sql = postgres_(url, { max: 1, onnotice: () => {} })
  let onLocked!: () => void
  let release!: () => void
  const locked = new Promise<void>((resolve) => (onLocked = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const done = sql.begin(async (tx) => {
    await tx`lock table executions in access exclusive mode`
    onLocked()
    await released
  })
  await locked
  return { release: async () => (release(), await done, await sql.end()) }
}
