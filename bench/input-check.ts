/**
 * What checking a call's arguments against the tool's input schema costs (core's executor/argument-check.ts): an
 * execute of 100 in-process tool calls through the executor, interleaved, with the tool row's schema absent (no
 * check: the baseline) and with two schemas: a small one (two required numbers, no others) and a larger one (twelve
 * properties of several types, nested objects and arrays, like a REST API's create-issue). The plugin answers at
 * once, so what differs is the check. `pnpm tsx bench/input-check.ts` (about 20 seconds). Prints figures.
 */
import * as Core from "@switchboard/core"
import * as Executor from "@switchboard/core/executor"
import { timeInterleavedUs } from "./execute/measure.js"

const small = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
  additionalProperties: false,
}
const large = {
  type: "object",
  properties: {
    owner: { type: "string" },
    repo: { type: "string" },
    title: { type: "string" },
    body: { type: "string" },
    assignees: { type: "array", items: { type: "string" } },
    milestone: { anyOf: [{ type: "string" }, { type: "integer" }] },
    labels: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" }, color: { type: "string" } } },
    },
    type: { type: "string", enum: ["bug", "feature", "task"] },
    draft: { type: "boolean" },
    meta: { type: "object", properties: { source: { type: "string" }, priority: { type: "integer", minimum: 0 } } },
    due: { type: "string" },
    weight: { type: "number" },
  },
  required: ["owner", "repo", "title"],
  additionalProperties: false,
}
const argsFor = {
  none: { a: 1, b: 2 },
  small: { a: 1, b: 2 },
  large: {
    owner: "octo",
    repo: "hello",
    title: "Crash on start",
    body: "It crashes.",
    assignees: ["ada", "grace"],
    milestone: 3,
    labels: [{ name: "bug", color: "red" }],
    type: "bug",
    draft: false,
    meta: { source: "agent", priority: 2 },
  },
}

const source = { id: "s1", namespace: "svc", kind: "fake", config: {}, status: "ready", lastSyncedAt: Date.now() }
const executorWith = (name: keyof typeof argsFor, inputSchema: unknown) => {
  const tool = {
    id: `t-${name}`,
    sourceId: "s1",
    name: "tool",
    path: "svc.tool",
    resultEncoding: null,
    encoding: "direct",
    outputSchema: null,
    inputSchema,
    syncedAt: 1,
  }
  const runtime = {
    run: async (_code: string, options: { invoke: (path: string, args: unknown) => Promise<unknown> }) => {
      for (let i = 0; i < 100; i++) await options.invoke("svc.tool", argsFor[name])
      return { ok: true as const, value: 2, logs: [] }
    },
  }
  return Executor.createExecutor({
    store: {
      getSource: async () => source,
      getTool: async () => tool,
      recordBatch: async () => {},
      mergeShapes: async () => {},
      listPolicies: async () => [],
    },
    sources: { ensureFresh: async (row: unknown) => row, markStale: () => {}, recordConnectFailure: async () => {} },
    runtime,
    plugins: [{ kind: "fake", invoke: async (_s: unknown, _t: string, args: unknown) => ({ ok: true, raw: args }) }],
    logger: Core.silentLogger,
  } as never)
}

const request = { code: "return 1+1" }
const executors = [executorWith("none", null), executorWith("small", small), executorWith("large", large)]
const [none, withSmall, withLarge] = await timeInterleavedUs(
  1_500,
  executors.map((e) => () => e.run(request)),
  200,
  50,
)
const perCall = (us: number) => (us / 100).toFixed(2)
console.log("| execute of 100 in-process tool calls | µs per execute | µs per call | ratio to no check |")
console.log("| --- | --- | --- | --- |")
console.log(`| no input schema (no check) | ${none!.toFixed(0)} | ${perCall(none!)} | 1.00 |`)
console.log(
  `| small schema (2 properties) | ${withSmall!.toFixed(0)} | ${perCall(withSmall!)} | ${(withSmall! / none!).toFixed(2)} |`,
)
console.log(
  `| larger schema (12 properties, nested) | ${withLarge!.toFixed(0)} | ${perCall(withLarge!)} | ${(withLarge! / none!).toFixed(2)} |`,
)
