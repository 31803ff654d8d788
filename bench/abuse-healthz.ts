/**
 * `pnpm bench:abuse` — /healthz under each issue 14 abuse case (apps/server/test/abuse/abuse-cases.ts), against a
 * `switchboard serve` child process on a real SQLite file: GET /healthz every 25 ms from this process while the
 * case runs (a window of at least 1 s), its p50, p99 and max, and the child's RSS once settled against its idle
 * figure (a case marked `isolation` runs on a server process of its own, its RSS read against its figure after the
 * case's setup). First the same probe with nothing running, then the suite's cases (their database faults last: the
 * deleted file stays deleted); then, on a second server process, the cases the suite leaves out. Prints figures;
 * asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fixtureCommand } from "@switchboard/fixtures"
import { abuseCases, codeOf, leftOut } from "../apps/server/test/abuse/abuse-cases.js"
import type { AbuseCase, CaseContext } from "../apps/server/test/abuse/abuse-cases.js"
import {
  call,
  percentile,
  probeHealth,
  rssOf,
  settledRss,
  spawnServe,
} from "../apps/server/test/support/process-harness.js"

const MB = 1 << 20
const print = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
print(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average at start ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
)
const header = () => {
  print("| case | status/code as expected | /healthz probes | p50 ms | p99 ms | max ms | RSS after − idle, MB |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
}

/** every path once (a worker's first run, the grep thread), so their one-time costs are in idle */
const warmUp = async (url: string) => {
  for (let i = 0; i < 50; i++) await call(url, "POST", "/v1/execute", { code: "return 1 + 1" })
  const listing = await call(url, "POST", "/v1/execute", {
    code: `return Array.from({ length: 2000 }, (_, i) => "line " + i).join("\\n")`,
  })
  await call(url, "GET", `/v1/executions/${listing.body.executionId}/output?grep=9$`)
  await sleep(1_000)
}

/** one row: /healthz probed while it acts, then the child's RSS against `baseline` (or, for none, after setup) */
const measure = async (row: AbuseCase, ctx: CaseContext, idleRss: number | undefined) => {
  const state = await row.setup?.(ctx)
  const baseline = idleRss ?? rssOf(ctx.pid)
  const health = probeHealth(ctx.url)
  const started = performance.now()
  let verdict = "yes"
  try {
    const answers = await row.act(ctx, state)
    const got = answers.map((answer) => `${answer.status} ${codeOf(answer) ?? "-"}`)
    const want = row.expect.map((e) => `${e.status} ${e.code ?? "-"}`)
    if (got.join(", ") !== want.join(", ")) verdict = `no: ${got.join(", ")}`.slice(0, 200)
    else await row.check?.(answers, ctx, state)
  } catch (error) {
    verdict = `no: ${String(error).slice(0, 80)}`
  }
  await sleep(Math.max(0, started + 1_000 - performance.now()))
  const { latencies, failures } = await health.stop()
  await row.teardown?.(ctx, state)
  const rss = await settledRss(ctx.pid, baseline, 50 * MB)
  const failed = failures.length ? ` (${failures.length} failed)` : ""
  const from = idleRss === undefined ? " (own process, from after setup)" : ""
  print(
    `| ${row.name} | ${verdict} | ${latencies.length}${failed} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${Math.max(...latencies).toFixed(1)} | ${((rss - baseline) / MB).toFixed(0)}${from} |`,
  )
}

/** a row that runs on a server process of its own (`isolation`) */
const isolated = async (row: AbuseCase, dir: string) => {
  const dbPath = join(dir, `${row.name.replace(/\W+/g, "-").slice(0, 40)}.db`)
  const server = await spawnServe(["--db", dbPath])
  try {
    await warmUp(server.url)
    await measure(row, { url: server.url, dbPath, pid: server.child.pid! }, undefined)
  } finally {
    await server.stop()
  }
}

/** one server process, warmed up, its idle RSS read, then each row in turn */
const session = async (title: string, rows: AbuseCase[]) => {
  const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-abuse-"))
  const dbPath = join(dir, "catalog.db")
  const server = await spawnServe(["--db", dbPath, "--allow-stdio"])
  try {
    const ctx: CaseContext = { url: server.url, dbPath, pid: server.child.pid! }
    const source = { namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } }
    if ((await call(server.url, "POST", "/v1/sources", source)).status !== 201)
      throw new Error("could not add the fixture source")
    await call(server.url, "POST", "/v1/execute", { code: "return (await tools.fx.echo({ message: 'warm' })).data" })
    await warmUp(server.url)
    const idleRss = rssOf(server.child.pid!)
    print("")
    print(`${title} (a server process of its own, idle RSS ${(idleRss / MB).toFixed(0)} MB)`)
    print("")
    header()
    for (const row of rows) {
      if (row.isolation === "own process") await isolated(row, dir)
      else await measure(row, ctx, idleRss)
    }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await session("The suite's cases (apps/server/test/abuse/abuse-process.test.ts), after 2 s with nothing running", [
  { name: "nothing running (2 s)", act: async () => (await sleep(2_000), []), expect: [] },
  ...abuseCases,
])
if (leftOut.length > 0) await session("Cases the suite leaves out (abuse-cases.ts `leftOut`)", leftOut)
print("")
print(
  `load average at end ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
)
