/**
 * Issue 30, finding 5: a `${NAME}` value of a config file never reaches the boot line or the log, even when an
 * upstream error quotes it. A `switchboard serve --config` process whose file has three sources that fail at boot,
 * each naming a variable's value in its error: a DNS failure naming the host, a spawn error naming the command,
 * and a server that prints its arguments as it dies. The boot goes on; each failure is reported with `${NAME}`
 * where the value was.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

const VALUES = {
  SB_DNS_HOST: "cfgsecret-host-5e6f.invalid",
  SB_MCP_BIN: "/nonexistent/cfgsecret-bin-7a8b",
  SB_WORKSPACE: "cfgsecret-ws-9c0d",
}

const dir = tempDir()
let server: ServeProcess
beforeAll(async () => {
  const file = join(dir.dir, "switchboard.config.json")
  const sources = [
    { namespace: "dns", kind: "mcp", transport: { type: "http", url: "http://${SB_DNS_HOST}/mcp" } },
    { namespace: "spawn", kind: "mcp", transport: { type: "stdio", command: "${SB_MCP_BIN}" } },
    {
      namespace: "echo",
      kind: "mcp",
      transport: {
        type: "stdio",
        command: process.execPath,
        args: [
          "-e",
          'console.error("no such workspace: " + process.argv[1]); process.exit(1)',
          "--",
          "${SB_WORKSPACE}",
        ],
      },
    },
  ]
  writeFileSync(file, JSON.stringify({ sources }))
  server = await spawnServe(["--db", join(dir.dir, "catalog.db"), "--allow-stdio", "--config", file], { env: VALUES })
}, 90_000)
afterAll(async () => {
  await server?.stop()
  dir.remove()
})

it("the boot line reports each failure with ${NAME} in place of the value it quoted", () => {
  const boot = server
    .stderr()
    .split("\n")
    .find((line) => line.startsWith("switchboard: config "))
  expect(boot).toBeDefined()
  expect(boot).toMatch(/FAILED dns: .*\$\{SB_DNS_HOST\}/)
  expect(boot).toMatch(/FAILED spawn: .*\$\{SB_MCP_BIN\}/)
  expect(boot).toMatch(/FAILED echo: .*no such workspace: \$\{SB_WORKSPACE\}/)
})

it("no value reaches the log or stdout", () => {
  const output = server.stdout() + server.stderr()
  for (const value of Object.values(VALUES)) expect(output.includes(value), `the output holds ${value}`).toBe(false)
})
