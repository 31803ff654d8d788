/**
 * `npm run demo` and `pnpm worker:dev` as the README gives them (scripts/start.mjs): a port already taken is said at
 * once, naming the port and the command that picks another, before any install or build runs.
 */
import { spawnSync } from "node:child_process"
import { createServer } from "node:net"
import type { AddressInfo, Server } from "node:net"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../..", import.meta.url))

let busy: Server
let port: number
beforeAll(async () => {
  busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve))
  port = (busy.address() as AddressInfo).port
})
afterAll(() => busy?.close())

it("npm run demo -- --port N on a taken port says so and what to run instead, exit 1, and builds nothing", () => {
  const run = spawnSync("npm", ["run", "demo", "--", "--port", String(port)], { cwd: root, encoding: "utf8" })
  expect(run.status).toBe(1)
  expect(run.stderr).toContain(
    `switchboard: 127.0.0.1:${port} is in use (another server?). Stop it, or choose another port: npm run demo -- --port ${port + 1}\n`,
  )
  // scripts/setup never ran: turbo prints its banner on every build, cached or not
  expect(run.stdout + run.stderr).not.toContain("turbo")
}, 60_000)

it("pnpm worker:dev on a taken $PORT says so, exit 1, before any build", () => {
  const run = spawnSync("node", ["scripts/start.mjs", "worker"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PORT: String(port) },
  })
  expect(run.status).toBe(1)
  expect(run.stderr).toBe(
    `switchboard: 127.0.0.1:${port} is in use (another server?). Stop it, or choose another port: PORT=${port + 1} pnpm worker:dev\n`,
  )
  expect(run.stdout).toBe("")
}, 60_000)
