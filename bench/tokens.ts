/**
 * `pnpm bench:tokens` — what code mode is for: the tokens a model reads through Switchboard against calling the
 * same tools directly (issue 31). For each catalog it counts the native side (every server's tools/list and
 * instructions, fetched by an MCP client from the real servers, then each direct call and its result as the SDK
 * returns it) and Switchboard's (our tools/list and instructions from a real server, then each describe answer
 * a task needs, its script and the result text), running three fixed tasks per catalog for real on both sides.
 * Catalog (c), GitHub's OpenAPI document, is called on both sides on a loopback stand-in for api.github.com (the
 * fixtures' GitHub service, answering with the spec's own examples). Prints Markdown tables; asserts nothing
 * beyond the tasks being done (and, for (c), each script type-checking against describe's answers). About a minute.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startGithubService } from "@switchboard/fixtures"
import { TOKENIZER } from "./tokens/count.js"
import { demoTasks } from "./tokens/demo-tasks.js"
import { githubNative } from "./tokens/github-native.js"
import { githubTools } from "./tokens/github-openapi.js"
import { githubTasks } from "./tokens/github-tasks.js"
import { runNative, runSwitchboard } from "./tokens/measure-task.js"
import type { NativeTaskCost, SwitchboardTaskCost } from "./tokens/measure-task.js"
import { connectNative } from "./tokens/native.js"
import type { NativeSide } from "./tokens/native.js"
import { referenceTasks } from "./tokens/reference-tasks.js"
import { startSwitchboard } from "./tokens/switchboard.js"
import type { SourceBody } from "./tokens/switchboard.js"
import type { Task } from "./tokens/task.js"
import { demoUpstreams, mcpSourceOf, referenceUpstreams } from "./tokens/upstreams.js"
import { makeWorkspace } from "./tokens/workspace.js"
import type { Workspace } from "./tokens/workspace.js"

const LISTING_TARGET = 1_000
/** At 1,000 tools and more, a task through Switchboard should cost at most this share of the native listing and results. */
const LARGE_CATALOG = 1_000
const LARGE_SHARE = 0.02

const print = (line = "") => process.stdout.write(`${line}\n`)
const n = (value: number) => value.toLocaleString("en-US")
const ratio = (ours: number, native: number) => `${(ours / native).toFixed(ours < native / 10 ? 3 : 2)}×`

interface Catalog {
  name: string
  native: () => Promise<NativeSide>
  /** what Switchboard registers for the same tools */
  sources: SourceBody[]
  tasks: Task[]
  workspace?: Workspace
  /**
   * Writes the tasks make that Switchboard's default policy would hold for a person's approval (the tool declares
   * destructiveHint): allowed, as an operator would, since a direct client asks its person outside the model's tokens.
   */
  allow?: string[]
  /** each script must type-check against describe's declarations (tools whose data types are declared, not observed) */
  typeCheck?: boolean
}

interface TaskRow {
  task: Task
  native: NativeTaskCost
  ours: SwitchboardTaskCost
}

const runTasks = async (catalog: Catalog, native: NativeSide, dir: string) => {
  const policies = (catalog.allow ?? []).map((pattern) => ({ pattern, action: "allow" as const }))
  const ours = await startSwitchboard(dir, catalog.sources, policies)
  const rows: TaskRow[] = []
  try {
    for (const task of catalog.tasks) {
      catalog.workspace?.reset()
      const oursCost = await runSwitchboard(ours, task, { typeCheck: catalog.typeCheck })
      catalog.workspace?.reset()
      rows.push({ task, native: await runNative(native, task), ours: oursCost })
    }
  } finally {
    await ours.close()
  }
  return { listing: ours.listing, rows }
}

const printCatalog = (catalog: Catalog, native: NativeSide, ours: Awaited<ReturnType<typeof runTasks>>) => {
  print(`### ${catalog.name}: ${n(native.tools)} tools`)
  print()
  print("| | native | Switchboard | Switchboard / native |")
  print("| --- | ---: | ---: | ---: |")
  print(
    `| listing: tools/list + instructions | ${n(native.listing)} | ${n(ours.listing)} | ${ratio(ours.listing, native.listing)} |`,
  )
  for (const { task, native: direct, ours: run } of ours.rows) {
    const nativeTotal = native.listing + direct.arguments + direct.results
    const oursTotal = ours.listing + run.describe + run.script + run.result
    print(`| task: ${task.name} | ${n(nativeTotal)} | ${n(oursTotal)} | ${ratio(oursTotal, nativeTotal)} |`)
  }
  print()
  print("| task | native calls: arguments + results (text alone) | Switchboard: describe (calls) + script + result |")
  print("| --- | --- | --- |")
  for (const { task, native: direct, ours: run } of ours.rows)
    print(
      `| ${task.name} | ${direct.calls} calls: ${n(direct.arguments)} + ${n(direct.results)} (${n(direct.resultTexts)}) ` +
        `| ${n(run.describe)} (${run.describes}) + ${n(run.script)} + ${n(run.result)} |`,
    )
  print()
  const met = ours.listing <= LISTING_TARGET ? "met" : "missed"
  print(`Our listing: ${n(ours.listing)} tokens, target ≤ ${n(LISTING_TARGET)}: ${met}.`)
  if (native.tools >= LARGE_CATALOG)
    for (const { task, native: direct, ours: run } of ours.rows) {
      const budget = (native.listing + direct.results) * LARGE_SHARE
      const cost = ours.listing + run.describe + run.script + run.result
      print(
        `${task.name}: ${n(cost)} tokens against ${n(Math.floor(budget))} (${LARGE_SHARE * 100}%): ${cost <= budget ? "met" : "missed"}.`,
      )
    }
  print()
}

const measure = async (catalog: Catalog, dir: string) => {
  mkdirSync(dir, { recursive: true })
  const native = await catalog.native()
  try {
    const ours = await runTasks(catalog, native, dir)
    printCatalog(catalog, native, ours)
    return ours
  } finally {
    await native.close()
  }
}

/** `pnpm bench:tokens c` measures catalog (c) alone; no argument, all three. */
const chosen = new Set(process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["a", "b", "c"])

const root = mkdtempSync(join(tmpdir(), "switchboard-bench-tokens-"))
try {
  print(
    `Tokenizer: ${TOKENIZER} (standing in for the model's own). Native results are counted as the SDK returns them.`,
  )
  print()
  if (chosen.has("a")) {
    const demo = demoUpstreams()
    await measure(
      {
        name: "(a) the demo source (what `switchboard demo` runs)",
        native: () => connectNative(demo),
        sources: demo.map(mcpSourceOf),
        tasks: demoTasks,
      },
      join(root, "a"),
    )
  }
  if (chosen.has("b")) {
    const workspace = makeWorkspace(mkdtempSync(join(root, "workspace-")))
    const reference = referenceUpstreams(workspace)
    await measure(
      {
        name: "(b) server-everything, server-memory and server-filesystem",
        native: () => connectNative(reference),
        sources: reference.map(mcpSourceOf),
        tasks: referenceTasks(workspace),
        workspace,
        allow: ["files.write_file"],
      },
      join(root, "b"),
    )
  }
  if (chosen.has("c")) {
    const standIn = await startGithubService()
    try {
      await measure(
        {
          name: "(c) GitHub's REST API (@octokit/openapi 23.0.2), one tool per operation",
          native: async () => githubNative(githubTools(), "github", standIn.url),
          sources: [
            {
              namespace: "github",
              kind: "openapi",
              spec: { url: `${standIn.url}/openapi.json` },
              baseUrl: standIn.url,
            },
          ],
          tasks: githubTasks,
          typeCheck: true,
        },
        join(root, "c"),
      )
    } finally {
      await standIn.close()
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
