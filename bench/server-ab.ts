/**
 * The whole server against another tree of it (an earlier revision with its node_modules), interleaved: one
 * `switchboard serve` process from each tree, the same client alternating between them, so both see the same
 * machine. `pnpm tsx bench/server-ab.ts <other tree> [rounds]` (about 3 minutes). Prints, for A (the other
 * tree) and B (this one): a trivial execute over HTTP (blocks of 50 alternating), 32 concurrent clients from a
 * load process of their own (rounds alternating), and a stdio MCP call through each server (100 per execute).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { fixtureCommand } from "@switchboard/fixtures"
import { createClient } from "./execute/http-client.js"
import { spawnLoad } from "./execute/load-client.js"
import { median, timeInterleavedUs } from "./execute/measure.js"

const [otherTree, roundsArg = "5"] = process.argv.slice(2)
if (!otherTree) throw new Error("usage: server-ab.ts <other tree> [rounds]")
const rounds = Number(roundsArg)
const thisTree = fileURLToPath(new URL("..", import.meta.url))

const startServer = (tree: string, port: number) =>
  new Promise<{ url: string; stop: () => void }>((done, fail) => {
    const dir = mkdtempSync(join(tmpdir(), "server-ab-"))
    const cli = join(resolve(tree), "apps/server/src/cli.ts")
    const child = spawn(
      process.execPath,
      ["--import", "tsx", cli, "serve", "--port", String(port), "--db", join(dir, "c.db"), "--allow-stdio"],
      { cwd: resolve(tree), stdio: ["ignore", "pipe", "ignore"] },
    )
    const stop = () => (child.kill(), rmSync(dir, { recursive: true, force: true }))
    child.stdout.on("data", (chunk: Buffer) => {
      const found = /listening on (\S+)/.exec(chunk.toString("utf8"))
      if (found) done({ url: found[1]!, stop })
    })
    child.on("exit", (code) => fail(new Error(`the server from ${tree} exited (${code})`)))
  })

const servers = { A: await startServer(otherTree, 47481), B: await startServer(thisTree, 47482) }
const clients = { A: createClient(servers.A.url), B: createClient(servers.B.url) }
const post = async (which: "A" | "B", body: string) => {
  const response = await clients[which].post("/v1/execute", body)
  if (response.status !== 200) throw new Error(`${which}: ${response.status} ${response.text.slice(0, 200)}`)
}
const line = (name: string, a: number, b: number, unit: string) =>
  console.log(`${name}: A ${a.toFixed(1)} ${unit} | B ${b.toFixed(1)} ${unit} | B/A ${(b / a).toFixed(3)}`)

try {
  for (const which of ["A", "B"] as const) {
    const source = { namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } }
    const added = await clients[which].post("/v1/sources", JSON.stringify(source))
    if (added.status !== 201) throw new Error(`${which}: adding the fixture answered ${added.status}`)
  }
  const trivial = JSON.stringify({ code: "return 1+1" })
  const [a, b] = await timeInterleavedUs(2_000, [() => post("A", trivial), () => post("B", trivial)], 2_500, 50)
  line("trivial execute over HTTP (worker pool), median of 2,000 in blocks of 50", a!, b!, "µs")

  const calls = JSON.stringify({
    code: "for (let i = 0; i < 100; i++) { const r = await tools.fx.echo({ message: 'm' + i }); if (!r.ok) throw new Error(r.error.message) } return 1",
  })
  const [ca, cb] = await timeInterleavedUs(60, [() => post("A", calls), () => post("B", calls)], 10)
  line("an execute making 100 stdio MCP calls, median of 60 alternating", ca!, cb!, "µs")

  const perSecond = { A: [] as number[], B: [] as number[] }
  for (let round = 0; round < rounds + 2; round++)
    for (const which of round % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const)) {
      const rate = await spawnLoad(servers[which].url, 32, 4_000)
      if (round >= 2) perSecond[which].push(rate)
    }
  line(
    `32 concurrent clients from a process of their own, median of ${rounds} rounds of 4,000`,
    median(perSecond.A),
    median(perSecond.B),
    "executions/s",
  )
} finally {
  clients.A.close()
  clients.B.close()
  servers.A.stop()
  servers.B.stop()
}
