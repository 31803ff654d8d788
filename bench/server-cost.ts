/**
 * `pnpm bench:server-cost [--rounds 5]`: the server's own cost per execute, each figure a ratio to a baseline taken
 * in the same run (about 2½ minutes). Processes of their own, started here: the built `switchboard serve` on a new
 * SQLite file, a bare Node JSON server (parses the body, answers a small JSON object) and a bare sandbox server.
 *
 * 1. Throughput: 32 keep-alive clients in a load process of their own (`execute/load-client.ts`), rounds alternating
 *    between the servers; executions/s, median of the rounds. Beside the bare JSON server (the baseline),
 *    a bare sandbox server (`execute/sandbox-server.ts`: the same worker pool running each script, and nothing
 *    else), so the figure also says what the server costs beyond running the script. Then each server thread's CPU
 *    per request during one more round of each, from /proc (Linux), so the answer says where the time goes, thread by
 *    thread.
 * 2. A stdio tool call: 100 sequential `tools.fx.echo` calls in one execute, minus a trivial execute, ÷ 100, against
 *    the design's floor (`execute/stdio-relay.ts`: a worker thread asking the main thread, no QuickJS, no executor).
 * 3. 100 parallel calls: one execute awaiting `Promise.all` of 100 echo calls, minus a trivial execute, against a
 *    direct SDK client making the same 100 calls at once.
 * 4. One call in an execute of its own (what an agent's short script does): against a trivial execute plus one call
 *    of the direct client. No target: it shows what the first call of an execute costs beyond those two.
 * 5. The CPU of 100 parallel calls: the server's threads beyond a trivial execute's, from /proc, against the direct
 *    client's process (process.cpuUsage). No target: CPU moves less than wall time on a shared machine.
 *
 * `--only throughput` or `--only stdio` runs one part.
 * The warm-up after boot (requests 501–1,500 against warm) is `pnpm bench:warmup`.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { fixtureCommand } from "@switchboard/fixtures"
import { createClient } from "./execute/http-client.js"
import { startListening } from "./execute/listening-process.js"
import { spawnLoad } from "./execute/load-client.js"
import { median, timeInterleavedUs } from "./execute/measure.js"
import { openRelayedMcp } from "./execute/stdio-relay.js"

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, only: { type: "string" } },
})
const rounds = Number(values.rounds)
const print = (line: string) => process.stdout.write(`${line}\n`)
const built = fileURLToPath(new URL("../apps/server/dist/switchboard.mjs", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-cost-"))

const bareJsonServer = `require("node:http").createServer((request, response) => {
  let body = ""
  request.setEncoding("utf8")
  request.on("data", (chunk) => (body += chunk))
  request.on("end", () => {
    const text = JSON.stringify({ ok: true, result: 2, text: "2", length: JSON.parse(body).code.length })
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    response.end(text)
  })
}).listen(0, "127.0.0.1", function () { console.log("listening on http://127.0.0.1:" + this.address().port) })`

/** CPU ticks of each thread of a process, by thread id and name */
const threadTicks = (pid: number) =>
  new Map(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim()
      return [`${tid} ${name}`, Number(fields[11]) + Number(fields[12])] as const
    }),
  )
/** µs of CPU per request of each busy thread during `load` (ticks are 10 ms: a round needs seconds of work) */
const cpuPerRequest = async (pid: number, requests: number, load: () => Promise<unknown>) => {
  const before = threadTicks(pid)
  await load()
  const after = threadTicks(pid)
  const perThread = [...after].map(([thread, ticks]) => ({
    thread,
    us: ((ticks - (before.get(thread) ?? 0)) * 10_000) / requests,
  }))
  return perThread.filter(({ us }) => us > 0).sort((a, b) => b.us - a.us)
}

print(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average at start ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
)
const bare = await startListening(["-e", bareJsonServer], "ignore")
const sandbox = await startListening(
  ["--import", "tsx", fileURLToPath(new URL("./execute/sandbox-server.ts", import.meta.url))],
  "ignore",
)
const server = await startListening(
  [built, "serve", "--port", "0", "--db", join(dir, "catalog.db"), "--allow-stdio"],
  "ignore",
)
try {
  if (values.only !== "stdio") await throughput()
  if (values.only !== "throughput") await stdioCalls()
} finally {
  await Promise.all([bare.stop(), sandbox.stop(), server.stop()])
  rmSync(dir, { recursive: true, force: true })
}

/** 1. throughput under 32 clients */
async function throughput() {
  const warm = 8000
  await spawnLoad(bare.url, 32, warm)
  await spawnLoad(sandbox.url, 32, warm)
  await spawnLoad(server.url, 32, warm)
  const bareRates: number[] = []
  const sandboxRates: number[] = []
  const serverRates: number[] = []
  for (let round = 0; round < rounds; round++) {
    bareRates.push(await spawnLoad(bare.url, 32, 20_000))
    sandboxRates.push(await spawnLoad(sandbox.url, 32, 8000))
    serverRates.push(await spawnLoad(server.url, 32, 8000))
  }
  const [bareRate, sandboxRate, serverRate] = [median(bareRates), median(sandboxRates), median(serverRates)]
  print(
    `trivial execute, 32 clients in a process of their own: ${serverRate.toFixed(0)}/s | baseline bare JSON server ` +
      `${bareRate.toFixed(0)}/s | ratio ${(serverRate / bareRate).toFixed(2)}x (target ≥ 0.8x)`,
  )
  print(
    `  the same against a bare sandbox server (the worker pool running each script, nothing else): ` +
      `${sandboxRate.toFixed(0)}/s | ratio ${(serverRate / sandboxRate).toFixed(2)}x (no target)`,
  )
  for (const [name, target, requests] of [
    ["bare JSON server", bare, 20_000],
    ["bare sandbox server", sandbox, 8000],
    ["switchboard serve", server, 8000],
  ] as const) {
    const threads = await cpuPerRequest(target.pid, requests, () => spawnLoad(target.url, 32, requests))
    const total = threads.reduce((sum, { us }) => sum + us, 0)
    const named = threads
      .slice(0, 6)
      .map(({ thread, us }) => `${thread} ${us.toFixed(0)}`)
      .join(", ")
    print(`  CPU per request, ${name}: ${total.toFixed(0)} µs (threads: ${named})`)
  }
}

/** 2. and 3. stdio tool calls, sequential and parallel */
async function stdioCalls() {
  const admin = createClient(server.url)
  const added = await admin.post(
    "/v1/sources",
    JSON.stringify({ namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } }),
  )
  if (added.status !== 201) throw new Error(`adding the stdio source: ${added.status} ${added.text}`)
  const execute = async (code: string) => {
    const answer = await admin.post("/v1/execute", JSON.stringify({ code }))
    if (answer.status !== 200 || !JSON.parse(answer.text).ok) throw new Error(`execute: ${answer.text.slice(0, 300)}`)
  }
  const sequential = "for (let i = 0; i < 100; i++) await tools.fx.echo({ message: `m${i}` }); return 1"
  const parallel =
    "await Promise.all(Array.from({ length: 100 }, (_, i) => tools.fx.echo({ message: `m${i}` }))); return 1"
  const relayed = await openRelayedMcp(100)
  const direct = new Client({ name: "bench", version: "1.0.0" })
  await direct.connect(new StdioClientTransport(fixtureCommand("contract-stdio")))
  const directParallel = () =>
    Promise.all(
      Array.from({ length: 100 }, (_, i) => direct.callTool({ name: "echo", arguments: { message: `m${i}` } })),
    )
  const one = "return (await tools.fx.echo({ message: 'one' })).ok"
  let floorUs = 0
  const floorSamples: number[] = []
  const [trivialUs = 0, sequentialUs = 0, parallelUs = 0, directParallelUs = 0, , oneUs = 0, directOneUs = 0] =
    await timeInterleavedUs(
      40,
      [
        () => execute("return 1"),
        () => execute(sequential),
        () => execute(parallel),
        directParallel,
        async () => floorSamples.push(await relayed.round()),
        () => execute(one),
        () => direct.callTool({ name: "echo", arguments: { message: "one" } }),
      ],
      10,
    )
  floorUs = median(floorSamples.slice(10))
  const perCall = (sequentialUs - trivialUs) / 100
  print(
    `stdio tool call, 100 in a row in one execute: ${perCall.toFixed(1)} µs per call | baseline the design's floor ` +
      `${floorUs.toFixed(1)} µs | ratio ${(perCall / floorUs).toFixed(2)}x (target ≤ 1.2x)`,
  )
  const parallelCost = parallelUs - trivialUs
  print(
    `100 parallel stdio calls in one execute: ${(parallelCost / 1000).toFixed(2)} ms | baseline a direct SDK client, ` +
      `the same 100 at once ${(directParallelUs / 1000).toFixed(2)} ms | ratio ${(parallelCost / directParallelUs).toFixed(2)}x ` +
      "(target ≤ 1.3x)",
  )
  print(
    `one stdio call in an execute of its own: ${oneUs.toFixed(0)} µs | baseline a trivial execute ${trivialUs.toFixed(0)} µs ` +
      `+ one call of a direct SDK client ${directOneUs.toFixed(0)} µs | ratio ${(oneUs / (trivialUs + directOneUs)).toFixed(2)}x`,
  )
  // CPU is the steadier figure on a shared machine: the same 100 calls, as CPU time of the server's threads beyond
  // a trivial execute's, against the direct client's own process (each side's MCP server process left out)
  const cpuRuns = 100
  const serverCpuMs = async (code: string) => {
    const before = threadTicks(server.pid)
    for (let index = 0; index < cpuRuns; index++) await execute(code)
    let all = 0
    let main = 0
    for (const [thread, ticks] of threadTicks(server.pid)) {
      const used = ticks - (before.get(thread) ?? 0)
      all += used
      // the process's own id is its main thread's
      if (thread.startsWith(`${server.pid} `)) main = used
    }
    return { all: (all * 10) / cpuRuns, main: (main * 10) / cpuRuns }
  }
  const trivialCpu = await serverCpuMs("return 1")
  const parallelCpu = await serverCpuMs(parallel)
  const cpuBefore = process.cpuUsage()
  for (let index = 0; index < cpuRuns; index++) await directParallel()
  const cpuUsed = process.cpuUsage(cpuBefore)
  const directCpuMs = (cpuUsed.user + cpuUsed.system) / 1000 / cpuRuns
  const serverCost = parallelCpu.all - trivialCpu.all
  print(
    `CPU of 100 parallel stdio calls: the server's threads ${serverCost.toFixed(2)} ms per execute beyond a trivial ` +
      `one (its main thread ${(parallelCpu.main - trivialCpu.main).toFixed(2)} ms) | baseline a direct SDK client's ` +
      `process ${directCpuMs.toFixed(2)} ms | ratio ${(serverCost / directCpuMs).toFixed(2)}x (no target; steadier ` +
      "than the times above)",
  )
  admin.close()
  await Promise.all([relayed.close(), direct.close()])
}
