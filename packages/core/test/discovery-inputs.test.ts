/**
 * `tools.$search` and `tools.$describe` with bad inputs, as the sandbox's prelude hands them to the invoker
 * (`$search(query, limit)` as `{ query, limit }`, `$describe(paths)` as `{ paths }`): each is an
 * `invalid_arguments` result saying how to call it and what the describe request's check found wrong.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import type { CodeRuntime, SourcePlugin, ToolResult } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
beforeEach(async () => {
  opened = await openStoreWithFakeSource("echo")
})
afterEach(() => opened.close())

const plugin = {
  kind: "fake",
  invoke: async (_source, _tool, args) => ({ ok: true, raw: args }),
  release: async () => {},
} as Pick<SourcePlugin, "kind" | "invoke" | "release"> as SourcePlugin

/** The result of one call of `path` with `args` made from inside a script. */
const callFromScript = async (path: string, args: unknown): Promise<ToolResult> => {
  let result: ToolResult | undefined
  const runtime: CodeRuntime = {
    run: async (_code, options) => {
      result = await options.invoke(path, args)
      return { ok: true, value: null, logs: [] }
    },
  }
  await executorOver(opened.store, runtime, plugin).run({ code: "" })
  return result!
}

const searchUsage = 'tools.$search takes a query string and an optional limit, e.g. tools.$search("weather", 5)'
const describeUsage =
  "tools.$describe takes a tool path or an array of paths, and optionally the data fields to declare, " +
  'e.g. tools.$describe("ns.tool") or tools.$describe(["ns.tool"], ["user.login"])'

it.each([
  // tools.$search(123)
  ["$search", { query: 123, limit: undefined }, `${searchUsage} ("query" must be a string of words)`],
  // tools.$search("x", 0) and tools.$search("x", 1e9): the limit's range is the describe request's
  ["$search", { query: "x", limit: 0 }, `${searchUsage} (limit must be a whole number from 1 to 100 (got 0))`],
  [
    "$search",
    { query: "x", limit: 1e9 },
    `${searchUsage} (limit must be a whole number from 1 to 100 (got 1000000000))`,
  ],
  // tools.$describe([1])
  ["$describe", { paths: [1] }, `${describeUsage} ("paths" must be an array of 1 to 100 tool paths)`],
  // tools.$describe("ns.tool", "user.login")
  [
    "$describe",
    { paths: ["ns.tool"], fields: "user.login" },
    `${describeUsage} ("fields" must be an array of 1 to 50 field paths, such as "user.login")`,
  ],
])("%s(%j) is invalid_arguments, saying how to call it and what was wrong", async (path, args, message) => {
  expect(await callFromScript(path, args)).toEqual({ ok: false, error: { code: "invalid_arguments", message } })
})
