/**
 * A tool path is looked up in the catalog once per execution, even when a script calls it many times at once
 * (`Promise.all`): the calls that arrive while the first lookup is out wait for it rather than each reading the
 * source, the tool and the policies again. A path that resolved to nothing is looked up again by a later call.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import { Effect } from "effect"
import type { CatalogStore, CodeRuntime, InvokeTool, SourcePlugin, ToolResult } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
beforeEach(async () => {
  opened = await openStoreWithFakeSource("t")
})
afterEach(() => opened.close())

/** the store, counting the reads a call's path resolves with */
const countingStore = (store: CatalogStore) => {
  const reads = { getSource: 0, getTool: 0 }
  const counted: CatalogStore = {
    ...store,
    getSource: (namespace) => {
      reads.getSource++
      return store.getSource(namespace)
    },
    getTool: (namespace, name) => {
      reads.getTool++
      return store.getTool(namespace, name)
    },
  }
  return { counted, reads }
}

const plugin = {
  kind: "fake",
  invoke: async (_source, tool, args) => ({ ok: true as const, raw: { tool, args } }),
} as Pick<SourcePlugin, "kind" | "invoke"> as SourcePlugin

const runtimeOf = (script: (invoke: InvokeTool) => Promise<unknown>): CodeRuntime => ({
  run: async (_code, options) => ({ ok: true, value: await script(options.invoke), logs: [] }),
})

it("20 calls of one path at once read its source and tool once, and every call is answered", async () => {
  const { counted, reads } = countingStore(opened.store)
  const executor = executorOver(
    counted,
    runtimeOf((invoke) => Promise.all(Array.from({ length: 20 }, (_, i) => invoke("fake.t", { i })))),
    plugin,
  )
  const response = await Effect.runPromise(executor.execute({ code: "" }))
  expect(response).toMatchObject({ ok: true })
  const results = (response as { result: ToolResult[] }).result
  expect(results.map((r) => r.ok && (r.data as { args: { i: number } }).args.i)).toEqual(
    Array.from({ length: 20 }, (_, i) => i),
  )
  expect(reads).toEqual({ getSource: 1, getTool: 1 })
})

it("a path that resolved to nothing is answered tool_not_found for each call at once, and looked up again later", async () => {
  const { counted, reads } = countingStore(opened.store)
  const executor = executorOver(
    counted,
    runtimeOf(async (invoke) => {
      const atOnce = await Promise.all([invoke("fake.gone", {}), invoke("fake.gone", {}), invoke("fake.gone", {})])
      const later = await invoke("fake.gone", {})
      return [...atOnce, later]
    }),
    plugin,
  )
  const response = await Effect.runPromise(executor.execute({ code: "" }))
  const results = (response as { result: ToolResult[] }).result
  expect(results.map((r) => !r.ok && r.error.code)).toEqual(Array(4).fill("tool_not_found"))
  expect(reads.getTool).toBe(2)
})
