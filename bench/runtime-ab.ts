/**
 * Interleaved A/B micro-benchmarks of packages/runtime-quickjs against an earlier git revision of it, in one
 * process: `pnpm tsx bench/runtime-ab.ts <rev> [section ...]` (sections: prepare run inthread pool; all by
 * default). The revision's package is extracted with `git archive` into a temporary folder that borrows this
 * package's node_modules, and built there when its bundles are build outputs. Each figure is a median of many
 * runs after a warm-up, the two sides taking turns run by run, so machine load shifts both alike. Never part of
 * `pnpm test`.
 */
import { execSync } from "node:child_process"
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import type { CodeRuntime, RunLimits, RunOutcome, ToolResult } from "@switchboard/core"
import { median } from "./execute/measure.js"

const rev = process.argv[2] ?? ""
if (!/^[\w./~^-]+$/.test(rev))
  throw new Error("usage: pnpm tsx bench/runtime-ab.ts <git revision> [prepare|run|inthread|pool ...]")
const sections = new Set(process.argv.length > 3 ? process.argv.slice(3) : ["prepare", "run", "inthread", "pool"])
const repo = fileURLToPath(new URL("..", import.meta.url))
const packageDir = join(repo, "packages/runtime-quickjs")

// the other revision's package (and the root scripts its build uses), resolving its npm packages from this package;
// a revision whose bundles are build outputs is built there, and the working tree is built from its sources
const dir = mkdtempSync(join(tmpdir(), "runtime-ab-"))
execSync(`git archive ${rev} packages/runtime-quickjs scripts | tar -x -C ${dir}`, { cwd: repo })
const otherPackage = join(dir, "packages/runtime-quickjs")
symlinkSync(realpathSync(join(packageDir, "node_modules")), join(otherPackage, "node_modules"))
if (existsSync(join(otherPackage, "scripts/build.mjs"))) execSync("node scripts/build.mjs", { cwd: otherPackage })
execSync("node scripts/build.mjs", { cwd: packageDir })

interface Side {
  runScript(module: unknown, code: string, options: unknown): Promise<{ outcome: RunOutcome }>
  createQuickJsRuntime(options?: unknown): Promise<CodeRuntime>
  loadQuickJsModule(): Promise<unknown>
  createWorkerPoolRuntime(options: unknown): Promise<CodeRuntime & { close(): Promise<void> }>
  prepareCode(code: string): unknown
}
const load = async (src: string): Promise<Side> => ({
  ...(await import(join(src, "index.ts"))),
  ...(await import(join(src, "node/index.ts"))),
  ...(await import(join(src, "prepare-code.ts"))),
})
const A = await load(join(otherPackage, "src"))
const B = await load(join(packageDir, "src"))
const a = `A ${rev}`
const b = "B working tree"

/** Medians in µs of each variant; every round runs each variant once, in rotating order. */
const interleaved = async (variants: Record<string, () => unknown>, runs: number, warmup: number) => {
  const names = Object.keys(variants)
  for (let index = 0; index < warmup; index++) for (const name of names) await variants[name]!()
  const samples = new Map(names.map((name) => [name, [] as number[]]))
  for (let index = 0; index < runs; index++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(index + offset) % names.length]!
      const started = performance.now()
      await variants[name]!()
      samples.get(name)!.push((performance.now() - started) * 1000)
    }
  }
  for (const name of names) console.log(`${name}: ${median(samples.get(name)!).toFixed(1)} µs (median of ${runs})`)
}

const limits: RunLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 << 20,
  stackBytes: 512 << 10,
  maxToolCalls: 2000,
  maxResultBytes: 8 << 20,
  maxResultNodes: 100_000,
  maxLogLines: 1000,
  maxLogBytes: 1 << 20,
  maxToolArgBytes: 1 << 20,
  maxToolArgBytesInFlight: 8 << 20,
}
const invoke = async (_path: string, args: unknown): Promise<ToolResult> => ({ ok: true, data: args })
const expectValue = (outcome: RunOutcome, value: unknown) => {
  if (!outcome.ok || outcome.value !== value)
    throw new Error(`unexpected outcome: ${JSON.stringify(outcome).slice(0, 200)}`)
}
const calls = "let s = 0\nfor (let i = 0; i < 100; i++) s += (await tools.svc.echo({ i })).data.i\nreturn s"
const agentScript = `const issues = await tools.github.search_issues({ q: "repo:acme/api is:open label:bug", per_page: 20 })
if (!issues.ok) return issues.error
const byAuthor: Record<string, number> = {}
for (const issue of issues.data.items) {
  byAuthor[issue.user.login] = (byAuthor[issue.user.login] ?? 0) + 1
}
const top = Object.entries(byAuthor).sort((a, b) => b[1] - a[1]).slice(0, 5)
const details = await Promise.all(top.map(([login]) => tools.github.get_user({ username: login })))
return top.map(([login, count], i) => ({ login, count, name: details[i].ok ? details[i].data.name : null }))`
const turn = () => new Promise((resolve) => setImmediate(resolve))

console.log(
  `load average at start ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
)
try {
  if (sections.has("prepare")) {
    await interleaved(
      {
        [`${a}: prepareCode("return 1+1")`]: () => A.prepareCode("return 1+1"),
        [`${b}: prepareCode("return 1+1")`]: () => B.prepareCode("return 1+1"),
      },
      3000,
      1000,
    )
    await interleaved(
      {
        [`${a}: prepareCode(581-byte agent script)`]: () => A.prepareCode(agentScript),
        [`${b}: prepareCode(581-byte agent script)`]: () => B.prepareCode(agentScript),
      },
      3000,
      1000,
    )
  }
  if (sections.has("run")) {
    const moduleA = await A.loadQuickJsModule()
    const moduleB = await B.loadQuickJsModule()
    await interleaved(
      {
        [`${a}: runScript("return 1+1")`]: async () =>
          expectValue((await A.runScript(moduleA, "return 1+1", { invoke, limits })).outcome, 2),
        [`${b}: runScript("return 1+1"), no sandbox prepared`]: async () =>
          expectValue((await B.runScript(moduleB, "return 1+1", { invoke, limits })).outcome, 2),
      },
      2000,
      300,
    )
  }
  if (sections.has("inthread")) {
    const runtimeA = await A.createQuickJsRuntime()
    const runtimeB = await B.createQuickJsRuntime()
    await interleaved(
      {
        [`${a}: in-thread run("return 1+1"), an event-loop turn between runs`]: async () => (
          expectValue(await runtimeA.run("return 1+1", { invoke, limits }), 2), await turn()
        ),
        [`${b}: in-thread run("return 1+1"), an event-loop turn between runs`]: async () => (
          expectValue(await runtimeB.run("return 1+1", { invoke, limits }), 2), await turn()
        ),
      },
      2000,
      300,
    )
    await interleaved(
      {
        [`${a}: in-thread, 100 sequential tool calls`]: async () =>
          expectValue(await runtimeA.run(calls, { invoke, limits }), 4950),
        [`${b}: in-thread, 100 sequential tool calls`]: async () =>
          expectValue(await runtimeB.run(calls, { invoke, limits }), 4950),
      },
      300,
      30,
    )
  }
  if (sections.has("pool")) {
    const poolA = await A.createWorkerPoolRuntime({ size: 2 })
    const poolB = await B.createWorkerPoolRuntime({ size: 2 })
    await interleaved(
      {
        [`${a}: pool run("return 1+1"), sequential`]: async () =>
          expectValue(await poolA.run("return 1+1", { invoke, limits }), 2),
        [`${b}: pool run("return 1+1"), sequential`]: async () =>
          expectValue(await poolB.run("return 1+1", { invoke, limits }), 2),
      },
      2000,
      300,
    )
    await interleaved(
      {
        [`${a}: pool, 100 sequential tool calls`]: async () =>
          expectValue(await poolA.run(calls, { invoke, limits }), 4950),
        [`${b}: pool, 100 sequential tool calls`]: async () =>
          expectValue(await poolB.run(calls, { invoke, limits }), 4950),
      },
      300,
      30,
    )
    const burst = async (pool: CodeRuntime, total = 2000) => {
      let next = 0
      const started = performance.now()
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next++ < total) expectValue(await pool.run("return 1+1", { invoke, limits }), 2)
        }),
      )
      return total / ((performance.now() - started) / 1000)
    }
    await burst(poolA)
    await burst(poolB)
    const rates: [number[], number[]] = [[], []]
    for (let round = 0; round < 5; round++) {
      rates[0].push(await burst(poolA))
      rates[1].push(await burst(poolB))
    }
    console.log(
      `${a}: pool, 32 concurrent callers, 2 workers: ${median(rates[0]).toFixed(0)} runs/s (median of 5 × 2,000)`,
    )
    console.log(
      `${b}: pool, 32 concurrent callers, 2 workers: ${median(rates[1]).toFixed(0)} runs/s (median of 5 × 2,000)`,
    )
    await poolA.close()
    await poolB.close()
  }
} finally {
  console.log(
    `load average at end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  )
  rmSync(dir, { recursive: true, force: true })
}
