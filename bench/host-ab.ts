/**
 * The main thread's own cost per execute, this tree against another's, in one process, interleaved: each tree's
 * `createHost` (SQLite in a temp folder) with a runtime that answers at once, and `app.request` of
 * `POST /v1/execute` without a socket: the hono app, the execute route, the executor and the group-committed
 * record, and nothing of HTTP parsing or of the worker pool, which both trees share unchanged.
 * Then 32 callers at once through each app, rounds alternating: the main thread's own ceiling.
 * `pnpm tsx bench/host-ab.ts <other tree>` (about a minute).
 */
import { mkdtempSync, openSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { CodeRuntime } from "@switchboard/core"
import * as B from "@switchboard/server"
import { median, timeInterleavedUs } from "./execute/measure.js"

const [otherTree, runsArg = "20000"] = process.argv.slice(2)
if (!otherTree) throw new Error("usage: host-ab.ts <other tree> [runs]")
const A = (await import(pathToFileURL(resolve(otherTree, "apps/server/src/index.ts")).href)) as typeof B

const instant: CodeRuntime = { run: async () => ({ ok: true, value: 2, logs: [] }) }
const silent = { error() {}, warn() {}, info() {} }
const dir = mkdtempSync(join(tmpdir(), "host-ab-"))
// HOST_AB_LOG=<file>: each host logs with this tree's logger (pino, JSON lines batched as on stderr: src/logging/log-destination.ts) into that file,
// a line per request where the tree has a request log; unset, both are silent. Both keep metrics, as a server does
// (a tree from before metrics ignores the option).
const logTo = process.env.HOST_AB_LOG
const logger = logTo ? B.createStderrLogger({ destination: openSync(logTo, "a") }) : silent
const hosts = {
  A: await A.createHost({ db: join(dir, "a.db"), runtime: instant, logger, metrics: true }),
  B: await B.createHost({ db: join(dir, "b.db"), runtime: instant, logger, metrics: true }),
}
const body = JSON.stringify({ code: "return 1+1" })
const post = async (which: "A" | "B") => {
  const response = await hosts[which].app.request("/v1/execute", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(body.length) },
    body,
  })
  if (response.status !== 200) throw new Error(`${which}: ${response.status}`)
  await response.text()
}
try {
  const runs = Number(runsArg)
  const [a, b] = await timeInterleavedUs(runs, [() => post("A"), () => post("B")], 5_000, 50)
  console.log(
    `POST /v1/execute through the app, a runtime that answers at once, median of ${runs} in blocks of 50: A ${a!.toFixed(1)} µs | B ${b!.toFixed(1)} µs | B/A ${(b! / a!).toFixed(3)}`,
  )
  // 32 callers at once, 4,000 executes a round, rounds alternating (two unmeasured first)
  const round = async (which: "A" | "B") => {
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next++ < 4_000) await post(which)
      }),
    )
    return 4_000 / ((performance.now() - started) / 1000)
  }
  const rates = { A: [] as number[], B: [] as number[] }
  for (let index = 0; index < 12; index++)
    for (const which of index % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const)) {
      const rate = await round(which)
      if (index >= 2) rates[which].push(rate)
    }
  console.log(
    `32 concurrent callers through the app, executions/s, median of 10 rounds of 4,000: A ${median(rates.A).toFixed(0)} | B ${median(rates.B).toFixed(0)} | B/A ${(median(rates.B) / median(rates.A)).toFixed(3)}`,
  )
} finally {
  await hosts.A.close()
  await hosts.B.close()
  rmSync(dir, { recursive: true, force: true })
}
