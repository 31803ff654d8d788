/**
 * `pnpm bench:demo-start` — what a person waits for at `npm run demo` on an unchanged tree (scripts/start.mjs:
 * the port check, scripts/setup with its install skipped and turbo's build replayed from its cache, then the demo):
 * spawn to the first 200 from /healthz, against `switchboard demo` started directly from the built CLI, interleaved
 * round by round. One unmeasured `npm run demo` first, which builds when an input changed. `--rounds N` (default 5).
 * Each round uses a new SQLite file in a temp folder. Prints figures; asserts nothing.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { freePort } from "@switchboard/fixtures"
import { median } from "./execute/measure.js"

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } })
const root = fileURLToPath(new URL("..", import.meta.url))
const print = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const healthy = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok
  } catch {
    return false
  }
}

/** ms from spawn to /healthz answering; then the process group is stopped and waited for */
const startToHealthz = async (command: string, args: (port: number, db: string) => string[]) => {
  const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-demo-"))
  const port = await freePort()
  const started = performance.now()
  const child = spawn(command, args(port, join(dir, "demo.db")), { cwd: root, stdio: "ignore", detached: true })
  try {
    for (let i = 0; ; i++) {
      if (await healthy(port)) return performance.now() - started
      if (child.exitCode !== null || i > 30_000) throw new Error(`${command} ${args(port, "").join(" ")} did not start`)
      await sleep(5)
    }
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid!, "SIGTERM")
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const npmDemo = (port: number, db: string) => ["run", "demo", "--", "--port", String(port), "--db", db]
const directDemo = (port: number, db: string) => [
  "apps/server/dist/switchboard.mjs",
  "demo",
  "--port",
  String(port),
  "--db",
  db,
]

print(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)}`,
)
const first = await startToHealthz("npm", npmDemo)
print(`first npm run demo (unmeasured warm-up; builds if an input changed): ${first.toFixed(0)} ms`)
const viaNpm: number[] = []
const direct: number[] = []
for (let round = 0; round < Number(values.rounds); round++) {
  viaNpm.push(await startToHealthz("npm", npmDemo))
  direct.push(await startToHealthz(process.execPath, directDemo))
}
const row = (name: string, ms: number[]) =>
  print(`| ${name} | ${Math.min(...ms).toFixed(0)} | ${median(ms).toFixed(0)} | ${Math.max(...ms).toFixed(0)} |`)
print("| spawn → /healthz, ms | min | median | max |\n| --- | --- | --- | --- |")
row("npm run demo (unchanged tree)", viaNpm)
row("switchboard demo (built CLI, the baseline)", direct)
print(
  `npm run demo / switchboard demo (medians): ${(median(viaNpm) / median(direct)).toFixed(2)}×; load at end ${loadavg()[0]!.toFixed(2)}`,
)
