/**
 * `pnpm bench:worker`: the Worker (its deploy bundle in local workerd, through Miniflare, D1 local) beside the Node
 * host (SQLite, the worker pool), in one run, interleaved, both with API keys on and one MCP source over streamable
 * HTTP on loopback (the contract fixture server). Local workerd is not Cloudflare's edge: what this shows is the
 * cost of the Worker's design (a host, and its MCP sessions, built per request) against the Node host's pooled one.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { silentLogger } from "@switchboard/core"
import { startContractHttpServer } from "@switchboard/fixtures"
import { startServer } from "@switchboard/server"
import { TEST_ADMIN_KEY, startWorker } from "@switchboard/worker/local"
import { createClient } from "./execute/http-client.js"
import { spawnLoad } from "./execute/load-client.js"
import { median, timeInterleavedUs } from "./execute/measure.js"

const upstream = await startContractHttpServer()
const dir = mkdtempSync(join(tmpdir(), "bench-worker-"))
const node = await startServer({ db: join(dir, "catalog.db"), port: 0, requireKey: true, logger: silentLogger })
const nodeKey = (await node.host.keys.create("bench", ["admin"])).key
const worker = await startWorker()

const hosts = [
  { name: "worker", url: worker.url, authorization: `Bearer ${TEST_ADMIN_KEY}` },
  { name: "node", url: node.url, authorization: `Bearer ${nodeKey}` },
].map((host) => ({ ...host, client: createClient(host.url, 1, { authorization: host.authorization }) }))

for (const host of hosts) {
  const added = await host.client.post(
    "/v1/sources",
    JSON.stringify({ namespace: "contract", kind: "mcp", transport: { type: "http", url: upstream.url } }),
  )
  if (added.status !== 201) throw new Error(`${host.name}: adding the source answered ${added.status} ${added.text}`)
}

const execute = (host: (typeof hosts)[number], code: string) => async () => {
  const response = await host.client.post("/v1/execute", JSON.stringify({ code }))
  if (response.status !== 200 || !response.text.includes('"ok":true'))
    throw new Error(`${host.name}: ${response.status} ${response.text.slice(0, 300)}`)
}

const line = (figure: string, [workerUs, nodeUs]: number[], unit = "ms") =>
  console.log(
    `${figure}: worker ${(workerUs! / 1000).toFixed(2)} ${unit} | node ${(nodeUs! / 1000).toFixed(2)} ${unit} ` +
      `| worker/node ${(workerUs! / nodeUs!).toFixed(2)}x`,
  )

const trivial = "return 1 + 1"
const oneCall = 'return (await tools.contract.echo({ message: "hi" })).ok'
const hundredCalls = 'for (let i = 0; i < 100; i++) await tools.contract.echo({ message: "hi" })\nreturn true'

line(
  "trivial execute (median of 400)",
  await timeInterleavedUs(
    400,
    hosts.map((h) => execute(h, trivial)),
    100,
    25,
  ),
)
line(
  "execute with one tool call (median of 200)",
  await timeInterleavedUs(
    200,
    hosts.map((h) => execute(h, oneCall)),
    40,
    10,
  ),
)
line(
  "execute with 100 sequential tool calls (median of 20)",
  await timeInterleavedUs(
    20,
    hosts.map((h) => execute(h, hundredCalls)),
    3,
  ),
)

const rounds: Record<string, number[]> = { worker: [], node: [] }
for (let round = 0; round < 4; round++)
  for (const host of hosts) {
    const perSecond = await spawnLoad(host.url, 32, 1_000, trivial, host.authorization)
    if (round > 0) rounds[host.name]!.push(perSecond) // the first round of each is unmeasured
  }
const [workerRate, nodeRate] = [median(rounds.worker!), median(rounds.node!)]
console.log(
  `32 clients, trivial executes (median of 3 rounds of 1,000): worker ${workerRate.toFixed(0)}/s | node ${nodeRate.toFixed(0)}/s ` +
    `| worker/node ${(workerRate / nodeRate).toFixed(2)}x`,
)

for (const host of hosts) host.client.close()
await worker.close()
await node.close()
await upstream.close()
rmSync(dir, { recursive: true, force: true })
