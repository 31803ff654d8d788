/**
 * A paused execution outlives its server (issue 18): killed with SIGKILL while paused, a restarted server over the
 * same SQLite file resumes it once approved; and a second server sharing the Postgres catalog resumes a run the
 * first one paused. Real `switchboard serve` processes (the built CLI) and the ledger fixture, which counts the calls
 * that reach it in a file: the call made before the pause reaches upstream exactly once.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, expect, it } from "vitest"
import { createTestDatabase, fixtureCommand } from "@switchboard/fixtures"
import { TEST_SECRET_KEY } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

const scratch = mkdtempSync(join(tmpdir(), "approvals-restart-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const running: ServeProcess[] = []
const serve = async (db: string) => {
  const server = await spawnServe(["--db", db, "--allow-stdio", "--log-level", "warn"], {
    env: { SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY },
  })
  running.push(server)
  return server
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()))
})

const ledgerCalls = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(0, line.indexOf(" ")))

const addLedger = async (url: string, file: string) => {
  const { command, args } = fixtureCommand("ledger-server")
  const added = await call(url, "POST", "/v1/sources", {
    namespace: "ledger",
    kind: "mcp",
    transport: { type: "stdio", command, args, env: { LEDGER_FILE: file } },
  })
  expect(added.status).toBe(201)
}

const SCRIPT = `
  const before = await tools.ledger.tick({ label: "before" })
  const wrote = await tools.ledger.write({ text: "after the restart" })
  return { before: before.data, wrote: wrote.data }
`

it("kill -9 while paused, restart, approve: the run completes, and the call before the pause ran once", async () => {
  const db = join(scratch, "catalog.db")
  const ledger = join(scratch, "ledger-restart.txt")
  const first = await serve(db)
  await addLedger(first.url, ledger)
  const paused = await call(first.url, "POST", "/v1/execute", { code: SCRIPT })
  expect(paused.status).toBe(202)
  first.child.kill("SIGKILL")
  await new Promise((resolve) => first.child.once("exit", resolve))

  const second = await serve(db)
  const listed = await call(second.url, "GET", "/v1/approvals")
  expect(listed.body.approvals.map((a: { id: string }) => a.id)).toEqual([paused.body.approval.id])
  const decided = await call(second.url, "POST", `/v1/approvals/${paused.body.approval.id}?wait=30s`, {
    decision: "approve",
  })
  expect(decided.body.execution).toMatchObject({ id: paused.body.executionId, status: "ok" })
  expect(JSON.parse(decided.body.execution.resultText)).toEqual({
    before: { n: 1 },
    wrote: { written: "after the restart", n: 1 },
  })
  expect(ledgerCalls(ledger)).toEqual(["tick", "write"])
}, 120_000)

it("a second server sharing the Postgres catalog resumes a run the first one paused", async () => {
  const database = await createTestDatabase("switchboard_approvals")
  try {
    const ledger = join(scratch, "ledger-pg.txt")
    const [a, b] = await Promise.all([serve(database.url), serve(database.url)])
    await addLedger(a.url, ledger)
    const paused = await call(a.url, "POST", "/v1/execute", { code: SCRIPT })
    expect(paused.status).toBe(202)
    const decided = await call(b.url, "POST", `/v1/approvals/${paused.body.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.body.execution).toMatchObject({ status: "ok" })
    // a reads the end b recorded
    const read = await call(a.url, "GET", `/v1/executions/${paused.body.executionId}`)
    expect(read.body.execution.status).toBe("ok")
    expect(ledgerCalls(ledger)).toEqual(["tick", "write"])
  } finally {
    await Promise.all(running.splice(0).map((server) => server.stop()))
    await database.drop()
  }
}, 120_000)
