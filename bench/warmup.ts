/**
 * `pnpm bench:warmup [--rounds 3] [--cold-client] [--requests 5000] [--wait ms] [--workers N] [--node-flag F …] [--code "return 1"]
 * [--log-level info]`: the execute path's warm-up curve (issue 17 §2). A fresh `switchboard serve` (the built CLI, a
 * new SQLite file, the listening line: workers loaded), then one client sending trivial executes one after another
 * over a keep-alive connection. Printed: the median latency of each band of requests counted from boot, as a ratio
 * to the warm median (requests past 3,000 of the same server). Target: requests 501–1,500 within 1.5× of warm.
 * Two servers a round, in alternating order: as built (serve sets V8's --interrupt-budget, src/cli.ts), and with
 * V8's default budget given to Node (67,584), the curve before that change; each figure is the median over rounds,
 * since one curve on this shared VM moves by 0.3× from run to run. `--node-flag` passes more flags to both (V8's
 * --no-liftoff …), to look for other causes.
 *
 * The client is warmed first, 5,000 requests to a bare HTTP server in a process of its own: the curve is the
 * server's warm-up, and a real client (an agent's long-running process) is not booted with the server. Unwarmed,
 * the bench's own `http.request` path tiered up during the first server's first thousand requests too.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { createClient } from "./execute/http-client.js"
import { startListening } from "./execute/listening-process.js"
import { median } from "./execute/measure.js"

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    /** leave the client cold, as the bench did before it warmed it (its tier-up then lands on the first server) */
    "cold-client": { type: "boolean", default: false },
    requests: { type: "string", default: "5000" },
    workers: { type: "string" },
    "node-flag": { type: "string", multiple: true, default: [] },
    code: { type: "string", default: "return 1" },
    "log-level": { type: "string", default: "warn" },
    /** ms to leave the server idle after its listening line before the first request */
    wait: { type: "string", default: "0" },
  },
})
const requests = Number(values.requests)
const built = fileURLToPath(new URL("../apps/server/dist/switchboard.mjs", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-warmup-"))

const serve = (nodeFlags: string[]) =>
  startListening([
    ...nodeFlags,
    built,
    "serve",
    "--port",
    "0",
    "--db",
    join(dir, "catalog.db"),
    "--log-level",
    values["log-level"],
    ...(values.workers ? ["--workers", values.workers] : []),
  ])

const bands: [number, number][] = [
  [1, 100],
  [101, 250],
  [251, 500],
  [501, 1000],
  [1001, 1500],
  [1501, 2000],
  [2001, 3000],
  [3001, requests],
]

/** every request's latency in µs, from a new server's first */
const curve = async (nodeFlags: string[]) => {
  rmSync(join(dir, "catalog.db"), { force: true })
  const server = await serve(nodeFlags)
  await new Promise((resolve) => setTimeout(resolve, Number(values.wait)))
  const client = createClient(server.url)
  const body = JSON.stringify({ code: values.code })
  const latencies: number[] = []
  try {
    for (let i = 0; i < requests; i++) {
      const started = performance.now()
      const answer = await client.post("/v1/execute", body)
      latencies.push((performance.now() - started) * 1000)
      if (answer.status !== 200) throw new Error(`request ${i + 1}: ${answer.status} ${answer.text}`)
    }
  } finally {
    client.close()
    await server.stop()
  }
  const warm = median(latencies.slice(3000))
  const band = (from: number, to: number) => median(latencies.slice(from - 1, to))
  return { warm, band, target: band(501, 1500) / warm }
}

/** 5,000 requests to a constant-answering server in another process, so the client's own JIT is warm */
const warmClient = async () => {
  const script = `require("node:http").createServer((q, s) => { q.resume(); q.on("end", () => s.end('{"result":2}')) })
    .listen(0, "127.0.0.1", function () { console.log("http://127.0.0.1:" + this.address().port) })`
  const bare = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] })
  const url = await new Promise<string>((resolve) => bare.stdout.once("data", (line) => resolve(String(line).trim())))
  const client = createClient(url)
  const body = JSON.stringify({ code: values.code })
  try {
    for (let i = 0; i < 5000; i++) await client.post("/v1/execute", body)
  } finally {
    client.close()
    bare.kill()
  }
}

type Curve = Awaited<ReturnType<typeof curve>>
const configurations = [
  { name: "as built", flags: values["node-flag"], curves: [] as Curve[] },
  { name: "V8's default budget", flags: ["--interrupt-budget=67584", ...values["node-flag"]], curves: [] as Curve[] },
]
if (!values["cold-client"]) await warmClient()
for (let round = 0; round < Number(values.rounds); round++)
  for (const index of configurations.keys()) {
    const configuration = configurations[(index + round) % configurations.length]!
    configuration.curves.push(await curve(configuration.flags))
  }
rmSync(dir, { recursive: true, force: true })
/** per band, the median over rounds of that round's band median and its ratio to that round's warm median */
const runs = configurations.map(({ name, curves }) => ({
  name,
  curve: {
    band: (from: number, to: number) => median(curves.map(({ band }) => band(from, to))),
    ratio: (from: number, to: number) => median(curves.map(({ band, warm }) => band(from, to) / warm)),
    targets: curves.map(({ target }) => target),
  },
}))
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(" ")
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average ${load}; ` +
    `client ${values["cold-client"] ? "cold" : "warmed"}; ` +
    `${values.rounds} rounds of ${requests} × ${JSON.stringify(values.code)} per server; ` +
    `workers ${values.workers ?? "default"}; node flags ${values["node-flag"].join(" ") || "none"}`,
)
console.log(`| requests after boot | ${runs.map((r) => `${r.name}: median µs | ratio to warm`).join(" | ")} |`)
console.log(`| --- | ${runs.map(() => "---: | ---:").join(" | ")} |`)
for (const [from, to] of bands)
  console.log(
    `| ${from}–${to} | ${runs
      .map(({ curve: { band, ratio } }) => `${band(from, to).toFixed(0)} | ${ratio(from, to).toFixed(2)}×`)
      .join(" | ")} |`,
  )
for (const { name, curve } of runs) {
  const target = median(curve.targets)
  console.log(
    `${name}: requests 501–1,500 at ${target.toFixed(2)}× warm, median of ${curve.targets
      .map((ratio) => `${ratio.toFixed(2)}×`)
      .join(", ")} (target ≤ 1.5×: ${target <= 1.5 ? "met" : "not met"})`,
  )
}
