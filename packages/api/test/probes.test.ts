/** /healthz and /readyz over stand-in services: readiness answers 503 with the reason, and within its deadline. */
import { expect, it } from "vitest"
import { DatabaseFault } from "@switchboard/core"
import type { CatalogStore } from "@switchboard/core"
import { READY_TIMEOUT_MS } from "../src/probes.js"
import { stubApp, stubServices } from "./stub-app.js"

const withStore = (checkReadiness: CatalogStore["checkReadiness"]) => {
  const errors: unknown[] = []
  const services = stubServices()
  const app = stubApp(
    {},
    {
      store: { ...services.store, checkReadiness },
      logger: { ...services.logger, error: (...args) => void errors.push(args) },
    },
  )
  return { app, errors }
}

it("answers 200 when the catalog can be read and written", async () => {
  const response = await withStore(async () => {}).app.request("http://127.0.0.1/readyz")
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ ok: true })
})

it("answers 503 with the database's own error, never a failed query's text, and logs each new reason once", async () => {
  const driver = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR_WRITE" })
  const wrapped = Object.assign(new Error("Failed query: insert into executions values (?)\nparams: secret-script"), {
    query: "insert into executions values (?)",
    cause: driver,
  })
  const { app, errors } = withStore(async () => {
    throw wrapped
  })
  for (let i = 0; i < 3; i++) {
    const response = await app.request("http://127.0.0.1/readyz")
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      ok: false,
      reason: "the catalog cannot be read and written: disk I/O error (SQLITE_IOERR_WRITE)",
    })
  }
  expect(errors).toHaveLength(1)
  const fault = await withStore(async () => {
    throw new DatabaseFault({ message: "the database file /x.db was deleted" })
  }).app.request("http://127.0.0.1/readyz")
  expect(await fault.json()).toMatchObject({
    reason: "the catalog cannot be read and written: the database file /x.db was deleted",
  })
})

it("a database that does not answer is 503 within the deadline", async () => {
  const started = performance.now()
  const response = await withStore(() => new Promise<void>(() => {})).app.request("http://127.0.0.1/readyz")
  expect(response.status).toBe(503)
  expect(((await response.json()) as { reason: string }).reason).toMatch(/did not answer within/)
  expect(performance.now() - started).toBeLessThan(READY_TIMEOUT_MS + 1_000)
}, 10_000)
