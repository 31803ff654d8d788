/**
 * `pnpm bench:startup` — how fast the built CLI starts (issue 17 §2), as a ratio to `node -e ''` measured in the
 * same run, interleaved round by round: process start to `/healthz` answering for `switchboard serve` (SQLite in a
 * temp folder, made by an unmeasured start first), and to its `listening on` line, printed once the sandbox's
 * workers have loaded too; and process start to exit for `switchboard tools --db <file>`.
 * `--source <checkout>` adds the same two run from that checkout's sources through tsx (what `pnpm switchboard`
 * ran before the build step: `--source /path/to/main`); `--compare <other built switchboard.mjs>` adds the same two
 * for another build, to weigh a change to it; `--rounds N` (default 15). Needs `pnpm build`. Prints figures.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createRequire } from "node:module"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { freePort } from "@switchboard/fixtures"
import { median } from "./execute/measure.js"

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "15" }, source: { type: "string" }, compare: { type: "string" } },
})
const rounds = Number(values.rounds)
const built = fileURLToPath(new URL("../apps/server/dist/switchboard.mjs", import.meta.url))
const source = values.source && join(values.source, "apps/server/src/cli.ts")
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href
if (!existsSync(built)) throw new Error(`${built} is missing: run \`pnpm build\` first`)

const print = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const healthz = (port: number) =>
  new Promise<boolean>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) => {
      res.resume()
      res.once("end", () => resolve(res.statusCode === 200))
    })
    req.once("error", () => resolve(false))
    req.end()
  })

/** ms from spawn to exit; a non-zero exit is an error (the figure would be of a failure) */
const untilExit = (args: string[]) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (d) => (stderr += d))
    child.once("exit", (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${args.join(" ")}: exit ${code} ${stderr}`)),
    )
  })

/**
 * ms from spawn to the first 200 from /healthz (asked every 2 ms), or with `until: "listening"` to the line
 * `switchboard listening on …`, which serve prints once its sandbox workers have loaded too; then the server is
 * stopped and waited for
 */
const untilHealthy = async (args: string[], until: "healthz" | "listening" = "healthz") => {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [...args, "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += d))
  child.stderr.on("data", (d) => (stderr += d))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const done = async () => (until === "healthz" ? healthz(port) : stdout.includes("listening on"))
  try {
    while (!(await done())) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited ${child.exitCode}: ${stderr}`)
      if (performance.now() - started > 60_000) throw new Error(`${args.join(" ")} not ready after 60 s: ${stderr}`)
      await sleep(2)
    }
    return performance.now() - started
  } finally {
    child.kill("SIGTERM")
    await exited
  }
}

const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-startup-"))
const db = join(dir, "catalog.db")
const figures: { name: string; run: () => Promise<number> }[] = [
  { name: "node -e ''", run: () => untilExit(["-e", ""]) },
  { name: "serve: start → /healthz", run: () => untilHealthy([built, "serve", "--db", db]) },
  {
    name: "serve: start → workers warm (the listening line)",
    run: () => untilHealthy([built, "serve", "--db", db], "listening"),
  },
  { name: "tools --db: start → exit", run: () => untilExit([built, "tools", "--db", db]) },
]
if (source)
  figures.push(
    {
      name: `serve from ${values.source} through tsx`,
      run: () => untilHealthy(["--import", tsx, source, "serve", "--db", db]),
    },
    {
      name: `tools from ${values.source} through tsx`,
      run: () => untilExit(["--import", tsx, source, "tools", "--db", db]),
    },
  )
const other = values.compare
if (other)
  figures.push(
    { name: `serve, ${other}`, run: () => untilHealthy([other, "serve", "--db", db]) },
    { name: `tools, ${other}`, run: () => untilExit([other, "tools", "--db", db]) },
  )

try {
  print(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average at start ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}; ${rounds} rounds, each runs every figure once (in turn, rotated by one per round)`,
  )
  // the catalog is made once, unmeasured: every measured start opens an existing database, as a restart does
  await untilHealthy([built, "serve", "--db", db])
  for (const figure of figures) await figure.run()
  const times = figures.map(() => [] as number[])
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < figures.length; i++) {
      const at = (i + round) % figures.length
      times[at]!.push(await figures[at]!.run())
    }
  }
  const base = median(times[0]!)
  print("")
  print("| figure | median ms | min ms | max ms | ratio to node -e '' (medians) |")
  print("| --- | --- | --- | --- | --- |")
  figures.forEach((figure, i) => {
    const xs = times[i]!
    print(
      `| ${figure.name} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${(median(xs) / base).toFixed(2)}× |`,
    )
  })
  print(
    `\nload average at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
