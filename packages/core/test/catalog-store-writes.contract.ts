/**
 * The store contract's writes at their limits, run by every implementation within catalogStoreContract: a batch
 * that fails part way changes nothing, writes past D1's 100 parameters a statement are cut into statements it
 * takes, two stores merging one tool's shapes at once lose no sample, and a result larger than a row reads back
 * byte for byte.
 */
import { beforeEach, expect, it } from "vitest"
import { inferShape } from "../src/shapes/infer-shape.js"
import { mergeStoredShapes } from "../src/shapes/normalize-shape.js"
import type { CatalogStore, ExecutionEntry } from "../src/index.js"
import { call, run, source, tool } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

export const catalogStoreWritesContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })

  it("a sync whose batch fails part way leaves the catalog exactly as it was", async () => {
    await store.insertSource(source("x"))
    await store.insertSource(source("x.y"))
    await store.applySync({ sourceId: "id-x", tools: [tool("y.z")], encoding: "direct", syncedAt: 1 })
    await store.applySync({ sourceId: "id-x.y", tools: [tool("kept"), tool("old")], encoding: "direct", syncedAt: 2 })
    await store.recordSyncError("id-x.y", "upstream down", 3)
    const before = { tools: await store.listTools({}), sources: await store.listSources() }
    // 300 rows go in several statements on every dialect; the 251st tool's path is x's "y.z" (x.y.z), taken, so a
    // statement after others have run fails
    const listing = [
      ...Array.from({ length: 250 }, (_, i) => tool(`t${i}`)),
      tool("z"),
      ...Array.from({ length: 49 }, (_, i) => tool(`u${i}`)),
    ]
    await expect(
      store.applySync({ sourceId: "id-x.y", tools: listing, encoding: "mcp-call-tool-result-v2", syncedAt: 4 }),
    ).rejects.toThrow()
    expect(await store.listTools({})).toEqual(before.tools)
    expect(await store.listSources()).toEqual(before.sources)
  })

  it("syncs 300 tools, replaces half, then goes back at the same time stamp (statements cut under the parameter limit)", async () => {
    await store.insertSource(source("big"))
    const names = async () => (await store.listTools({ namespace: "big" })).map((t) => t.name).sort()
    const first = Array.from({ length: 300 }, (_, i) => tool(`t${i}`))
    await store.applySync({ sourceId: "id-big", tools: first, encoding: "direct", syncedAt: 1 })
    expect(await store.countTools("id-big")).toBe(300)
    const ids = new Map((await store.listTools({ namespace: "big" })).map((t) => [t.name, t.id]))

    const second = [...first.slice(150), ...Array.from({ length: 150 }, (_, i) => tool(`n${i}`))]
    await store.applySync({ sourceId: "id-big", tools: second, encoding: "mcp-call-tool-result-v2", syncedAt: 2 })
    const kept = await store.listTools({ namespace: "big" })
    expect(kept.map((t) => t.name).sort()).toEqual(second.map((t) => t.name).sort())
    for (const t of kept) {
      expect(t).toMatchObject({ syncedAt: 2, resultEncoding: "mcp-call-tool-result-v2" })
      if (ids.has(t.name)) expect(t.id).toBe(ids.get(t.name))
    }

    // stamped as the last sync was: the 300 tools that vanished are known from the read (ids in several statements)
    await store.applySync({ sourceId: "id-big", tools: first.slice(0, 150), encoding: "direct", syncedAt: 2 })
    expect(await names()).toEqual(
      first
        .slice(0, 150)
        .map((t) => t.name)
        .sort(),
    )
  })

  it("records 50 executions of 40 tool calls each in one batch (statements cut under the parameter limit)", async () => {
    const entries: ExecutionEntry[] = Array.from({ length: 50 }, (_, i) => ({
      execution: { ...run(`m${i}`), resultText: `result ${i}`, toolCallCount: 40 },
      calls: Array.from({ length: 40 }, (_, j) => call(`m${i}`, j)),
    }))
    await store.recordBatch(entries)
    for (const { execution, calls } of entries)
      expect(await store.getExecution(execution.id)).toEqual({ ...execution, calls })
  })

  it("two stores on one database merge one tool's shapes at once without losing a sample", async () => {
    await store.insertSource(source("shared"))
    await store.applySync({ sourceId: "id-shared", tools: [tool("echo")], encoding: "direct", syncedAt: 1 })
    const toolId = (await store.getTool("shared", "echo"))!.id
    const other = subject().second()
    // no row yet: both stores insert it at once, and the one that finds it taken merges onto it
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? store : other).mergeShapes(
          [{ toolId, encoding: "direct", shape: inferShape({ [`k${i % 3}`]: i }), samples: 1, at: 100 + i }],
          mergeStoredShapes,
        ),
      ),
    )
    expect(await store.getShape(toolId, "direct")).toMatchObject({ sampleCount: 12, firstSeenAt: 100, lastSeenAt: 111 })
  })

  it("a result larger than a row holds is stored and read back byte for byte", async () => {
    // about 2.6 MB of UTF-8, past D1's 2,000,000 bytes a row: astral characters, and U+FFFD where render replaced
    // lone surrogates; three offsets move every cut between parts against the surrogate pairs
    const piece = "ascii é € 😀 \uFFFD 𝄞 "
    const text = piece.repeat(Math.ceil(2_600_000 / utf8Bytes(piece)))
    const prefixes = ["", "a", "ab"]
    await store.recordBatch(
      prefixes.map((prefix, i) => ({
        execution: { ...run(`r${i}`), resultText: prefix + text },
        calls: [call(`r${i}`, 0)],
      })),
    )
    for (const [i, prefix] of prefixes.entries()) {
      const stored = await store.getExecution(`r${i}`)
      expect(stored?.resultText?.length).toBe(prefix.length + text.length)
      expect(stored?.resultText === prefix + text).toBe(true)
      expect(stored?.calls).toHaveLength(1)
    }
  })

  it("a batch whose last statement fails stores no execution and no part of its result", async () => {
    const big = "😀".repeat(700_000) // 2.8 MB of UTF-8
    // the call names an execution that does not exist: its insert, after the execution's and the parts', fails
    await expect(
      store.recordBatch([{ execution: { ...run("p1"), resultText: big }, calls: [call("ghost", 0)] }]),
    ).rejects.toThrow()
    expect(await store.getExecution("p1")).toBeNull()
    await store.recordBatch([{ execution: { ...run("p1"), resultText: big }, calls: [call("p1", 0)] }])
    expect((await store.getExecution("p1"))?.resultText === big).toBe(true)
  })
}
