/**
 * Issue 14, how it is shown: the abuse cases (test/abuse/abuse-cases.ts) over HTTP against a real `switchboard serve`
 * process on a real SQLite file. For each case: the status and error code of every answer; that /healthz, probed
 * every 25 ms from this process (a new connection each time, as an orchestrator's probe makes it) while the case
 * ran, answered 200 each time within 250 ms; that the child's RSS (VmRSS) comes back within 50 MB of its idle
 * figure, read after a warm-up (a case that says so, `isolation`, runs on a server process of its own, against its
 * figure after the case's setup); that every execution id an answer names is found by GET /v1/executions/:id, and an
 * answer with stored:false names none.
 */
import { join } from "node:path"
import { fixtureCommand } from "@switchboard/fixtures"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { abuseCases, codeOf } from "./abuse-cases.js"
import type { CaseContext } from "./abuse-cases.js"
import { tempDir } from "../support/helpers.js"
import {
  call,
  executionIdsIn,
  missingExecutions,
  percentile,
  probeHealth,
  rssOf,
  settledRss,
  spawnServe,
} from "../support/process-harness.js"
import type { Answer, ServeProcess } from "../support/process-harness.js"

const MB = 1 << 20
const dir = tempDir()
const dbPath = join(dir.dir, "catalog.db")
let server: ServeProcess
let shared: CaseContext
let idleRss: number

/**
 * every path the cases use, once, so their one-time costs (a worker's first run, the grep thread) are in idle; the
 * tool call where the server has the fixture source
 */
const warmUp = async (url: string, { toolCall = true } = {}) => {
  for (let i = 0; i < 20; i++)
    expect((await call(url, "POST", "/v1/execute", { code: "return 1 + 1" })).status).toBe(200)
  if (toolCall)
    expect(
      (await call(url, "POST", "/v1/execute", { code: "return (await tools.fx.echo({ message: 'warm' })).data" })).body
        .result,
    ).toBe("warm")
  const listing = await call(url, "POST", "/v1/execute", {
    code: `return Array.from({ length: 2000 }, (_, i) => "line " + i).join("\\n")`,
  })
  expect((await call(url, "GET", `/v1/executions/${listing.body.executionId}/output?grep=9$`)).status).toBe(200)
  expect((await call(url, "GET", "/v1/tools?limit=5")).status).toBe(200)
  await new Promise((resolve) => setTimeout(resolve, 1_000))
}

/** a server of its own for one case (`isolation`), on a catalog of its own */
const ownServer = async (name: string) => {
  const ownDb = join(dir.dir, `${name.replace(/\W+/g, "-").slice(0, 40)}.db`)
  const own = await spawnServe(["--db", ownDb])
  await warmUp(own.url, { toolCall: false })
  return { server: own, ctx: { url: own.url, dbPath: ownDb, pid: own.child.pid! } satisfies CaseContext }
}

beforeAll(async () => {
  server = await spawnServe(["--db", dbPath, "--allow-stdio"])
  shared = { url: server.url, dbPath, pid: server.child.pid! }
  const source = { namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } }
  expect((await call(server.url, "POST", "/v1/sources", source)).status).toBe(201)
  await warmUp(server.url)
  idleRss = rssOf(server.child.pid!)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  dir.remove()
})

describe("abuse over HTTP against a server process", () => {
  test.each(abuseCases.map((row) => [row.name, row] as const))(
    "%s",
    async (_name, row) => {
      const own = row.isolation === "own process" ? await ownServer(row.name) : undefined
      const { ctx } = own ?? { ctx: shared }
      try {
        const state = await row.setup?.(ctx)
        const baseline = own ? rssOf(ctx.pid) : idleRss
        const health = probeHealth(ctx.url)
        let answers: Answer[]
        let probed: Awaited<ReturnType<typeof health.stop>>
        const started = performance.now()
        try {
          answers = await row.act(ctx, state)
          // probe for half a second at least, so a quick case's aftermath (a killed worker replaced, a collection) is seen too
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 500 - performance.now())))
        } finally {
          probed = await health.stop()
          await row.teardown?.(ctx, state)
        }
        const slowest = Math.max(...probed.latencies)
        const rss = await settledRss(ctx.pid, baseline, 50 * MB)
        console.log(
          `${row.name}: /healthz ${probed.latencies.length} probes, p50 ${percentile(probed.latencies, 50).toFixed(1)} ms, p99 ${percentile(probed.latencies, 99).toFixed(1)} ms, max ${slowest.toFixed(1)} ms; RSS ${(rss / MB).toFixed(0)} MB (${own ? "after setup" : "idle"} ${(baseline / MB).toFixed(0)} MB)`,
        )

        expect(answers.map((answer) => ({ status: answer.status, code: codeOf(answer) }))).toEqual(row.expect)
        await row.check?.(answers, ctx, state)
        expect(probed.failures).toEqual([])
        expect(probed.latencies.length).toBeGreaterThan(0)
        expect(slowest).toBeLessThan(250)
        const { ids, unstoredNamingIds } = executionIdsIn(answers)
        expect(unstoredNamingIds).toEqual([])
        expect(await missingExecutions(ctx.url, ids)).toEqual([])
        expect((rss - baseline) / MB).toBeLessThan(50)
      } finally {
        await own?.server.stop()
      }
    },
    60_000,
  )
})
