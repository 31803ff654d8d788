/**
 * `pnpm bench:tokens` — what code mode is for: the tokens a model reads through Switchboard against calling the
 * same tools directly (issue 31). For each catalog it counts the native side (every server's tools/list and
 * instructions, fetched by an MCP client from the real servers, then each direct call and its result as the SDK
 * returns it) and Switchboard's (our tools/list and instructions from a real server, then each describe answer
 * a task needs, its script and the result text), running three fixed tasks per catalog for real on both sides.
 * Catalog (c), GitHub's OpenAPI document, is counted on the native side only: Switchboard has no OpenAPI sources
 * yet. Prints Markdown tables; asserts nothing. About a minute.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TOKENIZER, listingTokens } from "./tokens/count.js"
import { demoTasks } from "./tokens/demo-tasks.js"
import { githubTools } from "./tokens/github-openapi.js"
import { runNative, runSwitchboard } from "./tokens/measure-task.js"
import type { NativeTaskCost, SwitchboardTaskCost } from "./tokens/measure-task.js"
import { connectNative } from "./tokens/native.js"
import { referenceTasks } from "./tokens/reference-tasks.js"
import { startSwitchboard } from "./tokens/switchboard.js"
import type { Task } from "./tokens/task.js"
import { demoUpstreams, referenceUpstreams } from "./tokens/upstreams.js"
import type { Upstream } from "./tokens/upstreams.js"
import { makeWorkspace } from "./tokens/workspace.js"
import type { Workspace } from "./tokens/workspace.js"

const LISTING_TARGET = 1_000
const print = (line = "") => process.stdout.write(`${line}\n`)
const n = (value: number) => value.toLocaleString("en-US")
const ratio = (ours: number, native: number) => `${(ours / native).toFixed(ours < native / 10 ? 3 : 2)}×`

interface CatalogRun {
  name: string
  upstreams: Upstream[]
  tasks: Task[]
  workspace?: Workspace
  /**
   * Writes the tasks make that Switchboard's default policy would hold for a person's approval (the tool declares
   * destructiveHint): allowed, as an operator would, since a direct client asks its person outside the model's tokens.
   */
  allow?: string[]
}

interface TaskRow {
  task: Task
  native: NativeTaskCost
  ours: SwitchboardTaskCost
}

const measureCatalog = async ({ name, upstreams, tasks, workspace, allow = [] }: CatalogRun, dir: string) => {
  mkdirSync(dir, { recursive: true })
  const native = await connectNative(upstreams)
  const ours = await startSwitchboard(
    dir,
    upstreams,
    allow.map((pattern) => ({ pattern, action: "allow" as const })),
  ).catch(async (error) => {
    await native.close()
    throw error
  })
  const rows: TaskRow[] = []
  try {
    for (const task of tasks) {
      workspace?.reset()
      const oursCost = await runSwitchboard(ours, task)
      workspace?.reset()
      rows.push({ task, native: await runNative(native, task), ours: oursCost })
    }
  } finally {
    await ours.close()
    await native.close()
  }

  print(`### ${name}: ${upstreams.length} server${upstreams.length > 1 ? "s" : ""}, ${native.tools} tools`)
  print()
  print("| | native | Switchboard | Switchboard / native |")
  print("| --- | ---: | ---: | ---: |")
  print(
    `| listing: tools/list + instructions | ${n(native.listing)} | ${n(ours.listing)} | ${ratio(ours.listing, native.listing)} |`,
  )
  for (const { task, native: direct, ours: run } of rows) {
    const nativeTotal = native.listing + direct.arguments + direct.results
    const oursTotal = ours.listing + run.describe + run.script + run.result
    print(`| task: ${task.name} | ${n(nativeTotal)} | ${n(oursTotal)} | ${ratio(oursTotal, nativeTotal)} |`)
  }
  print()
  print("| task | native calls: arguments + results (text alone) | Switchboard: describe (calls) + script + result |")
  print("| --- | --- | --- |")
  for (const { task, native: direct, ours: run } of rows)
    print(
      `| ${task.name} | ${direct.calls} calls: ${n(direct.arguments)} + ${n(direct.results)} (${n(direct.resultTexts)}) | ${n(run.describe)} (${run.describes}) + ${n(run.script)} + ${n(run.result)} |`,
    )
  print()
  print(
    `Our listing: ${n(ours.listing)} tokens, target ≤ ${n(LISTING_TARGET)}: ${ours.listing <= LISTING_TARGET ? "met" : "missed"}.`,
  )
  print()
  return { listing: ours.listing, rows }
}

const root = mkdtempSync(join(tmpdir(), "switchboard-bench-tokens-"))
try {
  print(
    `Tokenizer: ${TOKENIZER} (standing in for the model's own). Native results are counted as the SDK returns them.`,
  )
  print()
  const demo = await measureCatalog(
    { name: "(a) the demo source", upstreams: demoUpstreams(), tasks: demoTasks },
    join(root, "a"),
  )
  const workspace = makeWorkspace(mkdtempSync(join(root, "workspace-")))
  const reference = await measureCatalog(
    {
      name: "(b) server-everything, server-memory and server-filesystem",
      upstreams: referenceUpstreams(workspace),
      tasks: referenceTasks(workspace),
      workspace,
      allow: ["files.write_file"],
    },
    join(root, "b"),
  )

  const github = githubTools()
  const githubListing = listingTokens(github)
  const budget = Math.floor(githubListing * 0.02)
  const beyond = reference.rows.map(({ ours }) => ours.describe + ours.script + ours.result)
  print(`### (c) GitHub's REST API (@octokit/openapi, ${n(github.length)} operations): native side only`)
  print()
  print("| | native | Switchboard | Switchboard / native |")
  print("| --- | ---: | ---: | ---: |")
  print(`| listing: one tool per operation | ${n(githubListing)} | not measurable: no OpenAPI sources yet | — |`)
  print()
  print(
    `2% of this native listing is ${n(budget)} tokens. Our listing does not grow with the tools (catalog (a): ${n(demo.listing)}, (b): ${n(reference.listing)}); (b)'s tasks took ${n(Math.min(...beyond))}–${n(Math.max(...beyond))} more (describe, script, result).`,
  )
} finally {
  rmSync(root, { recursive: true, force: true })
}
