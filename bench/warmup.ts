/**
 * `pnpm bench:warmup [--requests 5000] [--workers N] [--node-flag F …] [--code "return 1"] [--log-level info]`:
 * the execute path's warm-up curve (issue 17 §2). A fresh `switchboard serve` (the built CLI, a new SQLite file,
 * the listening line: workers loaded), then one client sending trivial executes one after another over a
 * keep-alive connection. Printed: the median latency of each band of requests counted from boot, as a ratio to
 * the warm median (requests past 3,000 in the same run). Target: requests 500–1,500 within 1.5× of warm.
 * `--node-flag` passes a flag to the server's Node (V8's --no-liftoff …), to find what the warm-up is.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { createClient } from "./execute/http-client.js"
import { median } from "./execute/measure.js"

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "5000" },
    workers: { type: "string" },
    "node-flag": { type: "string", multiple: true, default: [] },
    code: { type: "string", default: "return 1" },
    "log-level": { type: "string", default: "warn" },
  },
})
const requests = Number(values.requests)
const built = fileURLToPath(new URL("../apps/server/dist/switchboard.mjs", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-warmup-"))

const serve = () =>
  new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
    const args = [
      ...values["node-flag"],
      built,
      "serve",
      "--port",
      "0",
      "--db",
      join(dir, "catalog.db"),
      "--log-level",
      values["log-level"],
      ...(values.workers ? ["--workers", values.workers] : []),
    ]
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url)
        resolve({
          url,
          stop: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done())
              child.kill("SIGTERM")
            }),
        })
    })
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)))
  })

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

const server = await serve()
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
  rmSync(dir, { recursive: true, force: true })
}

const warm = median(latencies.slice(3000))
const band = (from: number, to: number) => median(latencies.slice(from - 1, to))
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; ${requests} × ${JSON.stringify(values.code)}; workers ${values.workers ?? "default"}; node flags ${
    values["node-flag"].join(" ") || "none"
  }`,
)
console.log("| requests after boot | median µs | ratio to warm (3,001+) |")
console.log("| --- | ---: | ---: |")
for (const [from, to] of bands)
  console.log(`| ${from}–${to} | ${band(from, to).toFixed(0)} | ${(band(from, to) / warm).toFixed(2)}× |`)
const target = band(501, 1500) / warm
console.log(`requests 501–1,500: ${target.toFixed(2)}× warm (target ≤ 1.5×) ${target <= 1.5 ? "met" : "NOT met"}`)
