/**
 * Issue 14 §7–8 on a real SQLite file: another connection holding the write lock, a file made unwritable, a file
 * deleted while serving. /healthz keeps answering within 250 ms throughout, /readyz says what is wrong, and an
 * execute whose record could not be stored says so and names no id.
 *
 * An unwritable file as root: root ignores file modes, and a chmod does not reach a descriptor already open, so
 * the test sets the immutable attribute (`chattr +i`) on the database and its -wal. Linux (5.3+, ext4, xfs and
 * btrfs) refuses writes through open descriptors of an immutable file too (EPERM), which SQLite reports as
 * SQLITE_IOERR_WRITE. The -shm is left alone: it is mapped, and a refused write there would be a SIGBUS.
 */
import { execFileSync } from "node:child_process"
import { unlinkSync } from "node:fs"
import Database from "better-sqlite3"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterEach, expect, it } from "vitest"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  await server?.stop()
  server = undefined
})

/** a result over the inline cap: its response would point at the stored record to read the rest */
const LONG = `return Array.from({ length: 10000 }, (_, i) => "line " + i).join("\\n")`

/** GET /healthz every 25 ms until `stop`; each answer's latency */
const probeHealth = (url: string) => {
  const latencies: number[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      const response = await fetch(`${url}/healthz`)
      latencies.push(performance.now() - started)
      expect(response.status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })()
  return {
    async stop() {
      running = false
      await done
      return latencies
    },
  }
}

/** another process's connection holding the file's write lock (BEGIN IMMEDIATE), as a second server or a CLI would */
const holdWriteLock = (path: string) => {
  const other = new Database(path)
  other.exec("begin immediate")
  other.exec("insert into api_keys (id, name, hash, scopes, created_at) values ('k', 'other', 'h', '[]', 0)")
  return {
    release() {
      if (!other.open) return
      other.exec("rollback")
      other.close()
    },
  }
}

const immutable = (paths: string[], on: boolean) => execFileSync("chattr", [on ? "+i" : "-i", ...paths])

it("a write lock held by another connection for 2 s: /healthz answers within 250 ms meanwhile, and the record is stored once it is released", async () => {
  server = await startTestServer()
  const lock = holdWriteLock(server.dbPath)
  cleanups.push(() => lock.release())
  const health = probeHealth(server.url)
  const execution = server.request("POST", "/v1/execute", { code: LONG })
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  lock.release()
  const { status, body } = await execution
  const latencies = await health.stop()
  expect(status).toBe(200)
  expect(latencies.length).toBeGreaterThan(40)
  expect(Math.max(...latencies)).toBeLessThan(250)
  expect(body).toMatchObject({ ok: true, stored: true })
  expect(body.warning).toBeUndefined()
  expect(body.text).toContain(`read_output {"executionId":"${body.executionId}"`)
  expect((await server.request("GET", `/v1/executions/${body.executionId}`)).status).toBe(200)
}, 30_000)

it("a write lock held past the wait: the response says its record was not stored and names no id to read", async () => {
  const { logger, lines } = memoryLogger()
  server = await startTestServer({ logger, busyWaitMs: 300 })
  const lock = holdWriteLock(server.dbPath)
  cleanups.push(() => lock.release())
  const health = probeHealth(server.url)
  const { status, body } = await server.request("POST", "/v1/execute", { code: LONG })
  const latencies = await health.stop()
  expect(Math.max(...latencies)).toBeLessThan(250)
  expect(status).toBe(200)
  expect(body).toMatchObject({ ok: true, stored: false })
  expect(body.executionId).toBeUndefined()
  expect(body.warning).toMatch(/not stored.*locked/s)
  expect(body.text).toMatch(/line 0\n/)
  expect(body.text).not.toMatch(/read_output|\/v1\/executions/)
  expect(body.text).toMatch(/could not be stored/)
  expect(JSON.stringify(lines)).toMatch(/SQLITE_BUSY|locked/)
  lock.release()
  // the lock gone, the next one is stored
  expect(await server.execute("return 1")).toMatchObject({ ok: true, stored: true })
}, 30_000)

it("an unwritable file: /readyz answers 503 with the real error, which is logged, and executes say their records were not stored", async () => {
  const { logger, lines } = memoryLogger()
  server = await startTestServer({ logger })
  expect(await server.request("GET", "/readyz")).toMatchObject({ status: 200, body: { ok: true } })
  const files = [server.dbPath, `${server.dbPath}-wal`]
  immutable(files, true)
  cleanups.push(() => immutable(files, false))

  const ready = await server.request("GET", "/readyz")
  expect(ready.status).toBe(503)
  expect(ready.body.ok).toBe(false)
  expect(ready.body.reason).toMatch(/I\/O error|SQLITE_IOERR/)
  expect(ready.body.reason).not.toMatch(/cannot rollback/)
  expect((await server.request("GET", "/healthz")).status).toBe(200)

  const body = await server.execute("return 'hello'")
  expect(body).toMatchObject({ ok: true, stored: false, text: "hello" })
  expect(body.executionId).toBeUndefined()
  const logged = JSON.stringify(lines)
  expect(logged).toMatch(/I\/O error|SQLITE_IOERR/)
  expect(logged).not.toMatch(/cannot rollback/)

  immutable(files, false)
  expect((await server.request("GET", "/readyz")).status).toBe(200)
  const after = await server.execute("return 2")
  expect(after).toMatchObject({ ok: true, stored: true })
  expect((await server.request("GET", `/v1/executions/${after.executionId}`)).status).toBe(200)
}, 30_000)

it("over MCP, an execute whose record was not stored says so in its last text block and in _meta, and points at no id", async () => {
  server = await startTestServer()
  const client = new Client({ name: "switchboard-test-agent", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
  cleanups.push(() => void client.close())
  const files = [server.dbPath, `${server.dbPath}-wal`]
  immutable(files, true)
  cleanups.push(() => immutable(files, false))
  const result = (await client.callTool({ name: "execute", arguments: { code: LONG } })) as CallToolResult
  const texts = result.content.map((block) => (block.type === "text" ? block.text : ""))
  expect(texts[0]).toMatch(/^line 0\n/)
  expect(texts[0]).toMatch(/The rest could not be stored/)
  expect(texts.join("\n")).not.toMatch(/read_output \{|\/v1\/executions\//)
  expect(texts.at(-1)).toMatch(
    /^warning: this execution's record was not stored \(disk I\/O error \(SQLITE_IOERR_WRITE\); correlation id /,
  )
  expect(result._meta).toEqual({ "switchboard/execution": { stored: false } })
  immutable(files, false)
  const stored = (await client.callTool({ name: "execute", arguments: { code: "return 1" } })) as CallToolResult
  expect(stored._meta).toMatchObject({ "switchboard/execution": { stored: true, executionId: expect.any(String) } })
}, 30_000)

it("a file deleted while serving: /readyz answers 503 naming it, and records are not written where nobody will find them", async () => {
  const { logger, lines } = memoryLogger()
  server = await startTestServer({ logger })
  expect((await server.execute("return 1")).stored).toBe(true)
  unlinkSync(server.dbPath)
  // SQLite goes on writing to the deleted file: only the path tells. A watch on the file sees the unlink (no
  // /readyz needed first); a write in the moment between the unlink and its event would still go to the old file.
  await new Promise((resolve) => setTimeout(resolve, 100))
  const body = await server.execute("return 'lost?'")
  expect(body).toMatchObject({ ok: true, stored: false })
  expect(body.executionId).toBeUndefined()
  expect(body.warning).toMatch(/deleted|replaced/)
  const ready = await server.request("GET", "/readyz")
  expect(ready.status).toBe(503)
  expect(ready.body.reason).toContain(server.dbPath)
  expect(ready.body.reason).toMatch(/deleted|replaced/)
  expect((await server.request("GET", "/healthz")).status).toBe(200)
  expect(JSON.stringify(lines)).toMatch(/deleted|replaced/)
  // reads say the database is unavailable, as /readyz does: not an internal error of ours
  for (const path of ["/v1/executions", "/v1/tools", "/v1/sources", "/v1/executions/nope"]) {
    const read = await server.request("GET", path)
    expect({ path, status: read.status, code: read.body.error.code }).toEqual({
      path,
      status: 503,
      code: "database_unavailable",
    })
    expect(read.body.error.message).toContain(server.dbPath)
  }
}, 30_000)

it("/readyz needs no key, like /healthz", async () => {
  server = await startTestServer({ requireKey: true })
  expect(await server.request("GET", "/readyz")).toMatchObject({ status: 200, body: { ok: true } })
  expect((await server.request("GET", "/v1/sources")).status).toBe(401)
}, 30_000)

it("a lock race (another connection taking the write lock over and over, and checkpointing): every answer's `stored` says whether its record is in the file", async () => {
  server = await startTestServer({ busyWaitMs: 40 })
  const other = new Database(server.dbPath)
  cleanups.push(() => other.open && (other.inTransaction && other.exec("rollback"), other.close()))
  let racing = true
  const race = (async () => {
    for (let round = 0; racing; round++) {
      try {
        other.exec("begin immediate")
        other.exec(
          `insert into api_keys (id, name, hash, scopes, created_at) values ('k${round}', 'other', 'h${round}', '[]', 0)`,
        )
        await new Promise((resolve) => setTimeout(resolve, round % 3 === 0 ? 80 : round % 3))
        other.exec(round % 2 === 0 ? "commit" : "rollback")
        if (round % 5 === 0) other.pragma("wal_checkpoint(TRUNCATE)")
      } catch {
        // the server holds the lock: this round takes none
        if (other.inTransaction) other.exec("rollback")
      }
      await new Promise((resolve) => setTimeout(resolve, round % 4))
    }
  })()
  const answers: { marker: string; body: { stored: boolean; executionId?: string } }[] = []
  for (let wave = 0; wave < 12; wave++)
    answers.push(
      ...(await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          const marker = `race-${wave}-${i}`
          const { body } = await server!.request("POST", "/v1/execute", { code: `return "${marker}"` })
          return { marker, body }
        }),
      )),
    )
  racing = false
  await race
  other.close()
  const file = new Database(server.dbPath, { readonly: true })
  const inFile = new Map(
    file
      .prepare("select id, result_text from executions")
      .all()
      .map((row: any) => [row.result_text as string, row.id as string]),
  )
  file.close()
  const untrue = answers.filter(({ marker, body }) =>
    body.stored ? inFile.get(marker) !== body.executionId : inFile.has(marker),
  )
  expect(answers.some(({ body }) => !body.stored)).toBe(true)
  expect(untrue.map(({ marker, body }) => ({ marker, stored: body.stored }))).toEqual([])
}, 60_000)
