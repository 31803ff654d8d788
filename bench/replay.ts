/**
 * `pnpm bench:replay [--rounds 15]`: what a resume by replay costs (issue 18). A real server (SQLite in a temp
 * folder, the default worker pool) with the ledger fixture over stdio; the script makes 100 `lookup` calls, then
 * a `write`, which needs approval (destructiveHint), and returns. Timed per round: the first run, from POST
 * /v1/execute to its 202 (100 calls upstream, the pause stored), and the resume, from POST /v1/approvals/:id?wait
 * to its answer (the script again from the start, the 100 calls answered from the record, the approved write
 * upstream, the record rewritten). Baseline in the same run: the same script without the write, executed
 * (100 calls upstream), so the ratio says what a replay costs against running the calls. Medians after 3
 * unmeasured rounds, rounds interleaved.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { fixtureCommand } from "@switchboard/fixtures"
import { startServer } from "@switchboard/server"
import { median } from "./execute/measure.js"

const { values } = parseArgs({ options: { rounds: { type: "string", default: "15" } } })
const rounds = Number(values.rounds)
const dir = mkdtempSync(join(tmpdir(), "switchboard-bench-replay-"))
const quiet = { error() {}, warn() {}, info() {} }
const server = await startServer({ db: join(dir, "bench.db"), port: 0, logger: quiet, allowStdio: true })

const post = async (path: string, body: unknown) => {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

const { command, args } = fixtureCommand("ledger-server")
const added = await post("/v1/sources", {
  namespace: "ledger",
  kind: "mcp",
  transport: { type: "stdio", command, args, env: { LEDGER_FILE: join(dir, "ledger.txt") } },
})
if (added.status !== 201) throw new Error(`adding the ledger fixture answered ${added.status}`)

const calls = `for (let i = 0; i < 100; i++) await tools.ledger.lookup({ q: "k" + i })`
const paused = `${calls}\nawait tools.ledger.write({ text: "w" })\nreturn "done"`
const plain = `${calls}\nreturn "done"`

const firstMs: number[] = []
const resumeMs: number[] = []
const plainMs: number[] = []
for (let round = 0; round < rounds + 3; round++) {
  let started = performance.now()
  const run = await post("/v1/execute", { code: plain })
  const plainTook = performance.now() - started
  if (!run.body.ok) throw new Error(`the baseline failed: ${JSON.stringify(run.body)}`)
  started = performance.now()
  const first = await post("/v1/execute", { code: paused })
  const firstTook = performance.now() - started
  if (first.status !== 202) throw new Error(`the script did not pause: ${JSON.stringify(first.body)}`)
  started = performance.now()
  const resumed = await post(`/v1/approvals/${first.body.approval.id}?wait=60s`, { decision: "approve" })
  const resumeTook = performance.now() - started
  if (resumed.body.execution?.status !== "ok") throw new Error(`the resume failed: ${JSON.stringify(resumed.body)}`)
  if (round < 3) continue
  plainMs.push(plainTook)
  firstMs.push(firstTook)
  resumeMs.push(resumeTook)
}

const plainMedian = median(plainMs)
const firstMedian = median(firstMs)
const resumeMedian = median(resumeMs)
const row = (name: string, ms: number) =>
  console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / plainMedian).toFixed(2)}× baseline`)
console.log(`replay of 100 recorded calls, median of ${rounds} rounds (issue 18)`)
row("baseline: 100 calls upstream, executed", plainMedian)
row("first run: 100 calls upstream, then the pause stored", firstMedian)
row("resume: 100 calls replayed, the write upstream, recorded", resumeMedian)
console.log(`resume ÷ first run: ${(resumeMedian / firstMedian).toFixed(2)}×`)

await server.close()
rmSync(dir, { recursive: true, force: true })
