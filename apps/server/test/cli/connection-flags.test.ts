/**
 * `switchboard serve --max-connections-per-address N`, and `server.maxConnectionsPerAddress` in the config file: a
 * malformed value stops the start; a good one bounds the requests one client address has in progress.
 */
import { readdirSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import type { Socket } from "node:net"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

let cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

/** a POST whose headers are in and whose body never finishes: a request in progress until the server's timeout */
const unfinishedRequest = (url: string): Promise<Socket> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/execute HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":`,
      )
      resolve(socket)
    })
    socket.on("error", () => {})
  })

/** with `count` requests in progress, the next from the same address is refused naming the bound */
const expectBound = async (url: string, count: number) => {
  const held = await Promise.all(Array.from({ length: count }, () => unfinishedRequest(url)))
  cleanups.push(() => held.forEach((socket) => socket.destroy()))
  await new Promise((resolve) => setTimeout(resolve, 200))
  const refused = await call(url, "GET", "/v1/tools?limit=1")
  expect(refused.status).toBe(429)
  expect(refused.body.error.code).toBe("too_many_connections")
  expect(refused.body.error.message).toContain(`already has ${count} requests in progress`)
  expect((await call(url, "GET", "/healthz")).status).toBe(200)
}

it("a malformed --max-connections-per-address exits 2 naming the flag, before any database is opened", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  for (const value of ["0", "1.5", "many"]) {
    const run = await runCli(["serve", "--db", join(dir.dir, "never.db"), "--max-connections-per-address", value])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`--max-connections-per-address must be a whole number of at least 1 (got "${value}")`)
  }
  expect(readdirSync(dir.dir)).toEqual([])
}, 60_000)

it("the flag, or the config file's server.maxConnectionsPerAddress, bounds one address's requests in progress", async () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  const flagged = await spawnServe(["--db", join(dir.dir, "flag.db"), "--max-connections-per-address", "1"])
  cleanups.push(() => flagged.stop())
  await expectBound(flagged.url, 1)

  const config = join(dir.dir, "switchboard.config.json")
  writeFileSync(config, JSON.stringify({ server: { maxConnectionsPerAddress: 2 } }))
  const filed = await spawnServe(["--db", join(dir.dir, "file.db"), "--config", config])
  cleanups.push(() => filed.stop())
  await expectBound(filed.url, 2)
}, 60_000)
