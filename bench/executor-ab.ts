/**
 * The executor alone against another tree's, in one process, interleaved: `execute` of `return 1+1` with a runtime
 * that answers at once and a telemetry sink that drops the records, so what is timed is the executor's own cost
 * per execution (the Execution object, rendering, the group commit), by B's plain `run` (the HTTP route's) and by
 * its `execute` Effect (the MCP tool's). With `calls`, a
 * script of 100 in-process tool calls through each executor's invoker (a plugin that answers at once).
 * `pnpm tsx bench/executor-ab.ts <other tree>` (about 30 seconds).
 */
import { resolve } from "node:path"
import { Effect } from "effect"
import * as B from "@switchboard/core"
import * as Executor from "@switchboard/core/executor"
import { coreName } from "./core-face.js"
import { timeInterleavedUs } from "./execute/measure.js"

const [otherTree] = process.argv.slice(2)
if (!otherTree) throw new Error("usage: executor-ab.ts <other tree>")
const createExecutorA = await coreName<typeof Executor.createExecutor>(resolve(otherTree), "executor", "createExecutor")

const source = { id: "s1", namespace: "svc", kind: "fake", config: {}, status: "ready", lastSyncedAt: Date.now() }
// `encoding`: what a store reads a NULL stamp as (a tree from before it reads `resultEncoding` alone)
const tool = {
  id: "t1",
  sourceId: "s1",
  name: "echo",
  path: "svc.echo",
  resultEncoding: null,
  encoding: "direct",
  outputSchema: null,
}
const store = {
  getSource: async () => source,
  getTool: async () => tool,
  recordBatch: async () => {},
  mergeShapes: async () => {},
  // no policy rules: every call is allowed (a tree before policies never asks)
  listPolicies: async () => [],
}
const plugin = { kind: "fake", invoke: async (_s: unknown, _t: string, args: unknown) => ({ ok: true, raw: args }) }
/** A runtime that runs no guest: `calls` tool calls through the executor's invoke, then answers. */
const runtimeOf = (calls: number) => ({
  run: async (_code: string, options: { invoke: (path: string, args: unknown) => Promise<unknown> }) => {
    for (let i = 0; i < calls; i++) await options.invoke("svc.echo", { i })
    return { ok: true as const, value: 2, logs: [] }
  },
})
const options = (calls: number) =>
  ({
    store,
    sources: { ensureFresh: async (row: unknown) => row, markStale: () => {}, recordConnectFailure: async () => {} },
    runtime: runtimeOf(calls),
    plugins: [plugin],
    logger: B.silentLogger,
  }) as never

for (const calls of [0, 100]) {
  const a = createExecutorA(options(calls)) as unknown as {
    run: (r: unknown) => Promise<unknown>
  }
  const b = Executor.createExecutor(options(calls))
  const request = { code: "return 1+1" }
  const [ta, tb, te] = await timeInterleavedUs(
    calls === 0 ? 20_000 : 2_000,
    [() => a.run(request), () => b.run(request), () => Effect.runPromise(b.execute(request))],
    calls === 0 ? 5_000 : 300,
    50,
  )
  const what = calls === 0 ? "execute, a runtime that answers at once" : "execute with 100 in-process tool calls"
  const runs = `B run (the HTTP path) ${tb!.toFixed(1)} µs, B/A ${(tb! / ta!).toFixed(3)}`
  const effect = `B execute (Effect) ${te!.toFixed(1)} µs, B/A ${(te! / ta!).toFixed(3)}`
  console.log(`${what}: A run ${ta!.toFixed(1)} µs | ${runs} | ${effect}`)
}
