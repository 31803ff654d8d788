/**
 * The CatalogStore contract: one suite, run by every implementation (a SQLite file, Postgres, D1 in workerd).
 * Each test gets a fresh, migrated, empty database from `open`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { callerOf } from "../src/auth/scopes.js"
import { createApiKeyService } from "../src/auth/api-keys.js"
import { inferShape } from "../src/shapes/infer-shape.js"
import { mergeStoredShapes, normalizeShape } from "../src/shapes/normalize-shape.js"
import { shapeToTypeScript } from "../src/shapes/shape-to-typescript.js"
import type { CatalogStore } from "../src/index.js"
import { call, run, source, tool } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"
import { catalogStoreWritesContract } from "./catalog-store-writes.contract.js"
import { catalogStoreRetentionContract } from "./catalog-store-retention.contract.js"
import { catalogStoreListingContract } from "./catalog-store-listing.contract.js"
import { catalogStorePoliciesContract } from "./catalog-store-policies.contract.js"
import { catalogStoreApprovalsContract } from "./catalog-store-approvals.contract.js"
import { catalogStoreResultsContract } from "./catalog-store-results.contract.js"
import { catalogStoreDefinitionsContract } from "./catalog-store-definitions.contract.js"

export const catalogStoreContract = (name: string, open: () => Promise<StoreUnderTest>) =>
  describe(`CatalogStore on ${name}`, () => {
    let subject: StoreUnderTest
    let store: CatalogStore
    beforeEach(async () => {
      subject = await open()
      store = subject.store
    })
    afterEach(() => subject.close())

    it("checkReadiness reads and writes, and changes nothing", async () => {
      await store.insertSource(source("alpha"))
      await store.checkReadiness()
      await store.checkReadiness()
      expect((await store.listSources()).map((s) => s.namespace)).toEqual(["alpha"])
    })

    it("stores a source and reads it back exactly, JSON config included", async () => {
      const row = source("alpha")
      await store.insertSource(row)
      expect(await store.getSource("alpha")).toEqual(row)
      expect(await store.getSource("beta")).toBeNull()
      await store.insertSource(source("beta"))
      expect((await store.listSources()).map((s) => s.namespace)).toEqual(["alpha", "beta"])
    })

    it("replaces a source's config, unconditionally or only if the row was not written since a given time", async () => {
      const row = source("alpha")
      await store.insertSource(row)
      const next = { transport: { type: "stdio", command: "x", args: [], env: { A: "enc:v1:k:iv:ct" } } }
      await store.updateSourceConfig({ source: row, config: next, at: row.updatedAt + 5 })
      expect(await store.getSource("alpha")).toEqual({ ...row, config: next, updatedAt: row.updatedAt + 5 })
      await store.updateSourceConfig({
        source: row,
        config: { stale: true },
        at: row.updatedAt + 9,
        ifUpdatedAt: row.updatedAt,
      })
      expect((await store.getSource("alpha"))!.config).toEqual(next)
      await store.updateSourceConfig({
        source: row,
        config: { fresh: true },
        at: row.updatedAt + 9,
        ifUpdatedAt: row.updatedAt + 5,
      })
      expect((await store.getSource("alpha"))!.config).toEqual({ fresh: true })
    })

    it("refuses a second source with the same namespace", async () => {
      await store.insertSource(source("alpha"))
      await expect(store.insertSource(source("alpha", { id: "other" }))).rejects.toThrow()
      expect((await store.listSources()).length).toBe(1)
    })

    it("a sync inserts, updates and stamps, deletes vanished tools, and keeps ids of kept ones", async () => {
      await store.insertSource(source("ns", { status: "error", syncError: "old failure" }))
      await store.applySync({
        sourceId: "id-ns",
        tools: [tool("keep"), tool("Vanish"), tool("keep")],
        encoding: "direct",
        syncedAt: 1000,
      })
      const first = await store.getTool("ns", "keep")
      expect(first).toMatchObject({
        path: "ns.keep",
        namespace: "ns",
        name: "keep",
        resultEncoding: "direct",
        syncedAt: 1000,
        outputSchema: null,
      })
      expect(await store.countTools("id-ns")).toBe(2)
      expect(await store.getSource("ns")).toMatchObject({ status: "ready", syncError: null, lastSyncedAt: 1000 })

      const schema = { type: "object", properties: { n: { type: "number" } } }
      await store.applySync({
        sourceId: "id-ns",
        tools: [tool("keep", { description: "changed", outputSchema: schema }), tool("New")],
        encoding: "mcp-call-tool-result-v2",
        syncedAt: 2000,
      })
      const kept = await store.getTool("ns", "keep")
      expect(kept).toMatchObject({
        id: first!.id,
        description: "changed",
        outputSchema: schema,
        resultEncoding: "mcp-call-tool-result-v2",
        syncedAt: 2000,
      })
      expect(await store.getTool("ns", "Vanish")).toBeNull()
      expect(await store.getTool("ns", "New")).toMatchObject({ path: "ns.New" })
      expect(await store.countTools("id-ns")).toBe(2)
    })

    it("a tool reads back with its stamp as stored and the encoding it is decoded under: an unknown stamp is direct", async () => {
      await store.insertSource(source("ns"))
      await store.applySync({
        sourceId: "id-ns",
        tools: [tool("newer")],
        encoding: "mcp-call-tool-result-v3",
        syncedAt: 1000,
      })
      const expected = { resultEncoding: "mcp-call-tool-result-v3", encoding: "direct" }
      expect(await store.getTool("ns", "newer")).toMatchObject(expected)
      expect(await store.listTools({ namespace: "ns" })).toMatchObject([expected])
      await store.applySync({
        sourceId: "id-ns",
        tools: [tool("newer")],
        encoding: "mcp-call-tool-result-v2",
        syncedAt: 2000,
      })
      const stamped = { resultEncoding: "mcp-call-tool-result-v2", encoding: "mcp-call-tool-result-v2" }
      expect(await store.getTool("ns", "newer")).toMatchObject(stamped)
      expect(await store.listTools({ namespace: "ns" })).toMatchObject([stamped])
    })

    it("a recorded sync error changes nothing but the error and status", async () => {
      await store.insertSource(source("ns"))
      await store.applySync({ sourceId: "id-ns", tools: [tool("a")], encoding: "direct", syncedAt: 1000 })
      await store.recordSyncError("id-ns", "tools/list failed", 5000)
      expect(await store.getSource("ns")).toMatchObject({
        status: "error",
        syncError: "tools/list failed",
        lastSyncedAt: 1000,
      })
      expect(await store.countTools("id-ns")).toBe(1)
    })

    it("lists tools by namespace and limit, ordered by path; names are case-sensitive", async () => {
      await store.insertSource(source("a"))
      await store.insertSource(source("b"))
      await store.applySync({
        sourceId: "id-a",
        tools: [tool("search_docs"), tool("getUser"), tool("100%_match")],
        encoding: "direct",
        syncedAt: 1,
      })
      await store.applySync({ sourceId: "id-b", tools: [tool("search_web")], encoding: "direct", syncedAt: 1 })
      expect((await store.listTools({})).map((t) => t.path)).toEqual([
        "a.100%_match",
        "a.getUser",
        "a.search_docs",
        "b.search_web",
      ])
      expect((await store.listTools({ namespace: "b" })).map((t) => t.path)).toEqual(["b.search_web"])
      expect((await store.listTools({ limit: 2 })).length).toBe(2)
      expect(await store.getTool("a", "getuser")).toBeNull()
      expect((await store.toolPaths("a")).sort()).toEqual(["a.100%_match", "a.getUser", "a.search_docs"])
    })

    it("the reads an execute makes again and again see each write since: a status, a re-synced tool, a removal", async () => {
      await store.insertSource(source("hot"))
      await store.insertSource(source("other"))
      await store.applySync({ sourceId: "id-hot", tools: [tool("a")], encoding: "direct", syncedAt: 1 })
      await store.applySync({ sourceId: "id-other", tools: [tool("a")], encoding: "direct", syncedAt: 1 })
      expect(await store.getSource("hot")).toMatchObject({ status: "ready" })
      expect(await store.getTool("hot", "a")).toMatchObject({ description: "does a", syncedAt: 1 })
      await store.applySync({
        sourceId: "id-hot",
        tools: [tool("a", { description: "changed" }), tool("b")],
        encoding: "direct",
        syncedAt: 3,
      })
      await store.recordSyncError("id-hot", "tools/list failed", 4)
      expect(await store.getSource("hot")).toMatchObject({ status: "error", syncError: "tools/list failed" })
      expect(await store.getTool("hot", "a")).toMatchObject({ description: "changed", syncedAt: 3 })
      expect(await store.getTool("hot", "b")).toMatchObject({ path: "hot.b" })
      // the same read with other values answers for them, not for the last
      expect(await store.getTool("other", "a")).toMatchObject({ sourceId: "id-other", description: "does a" })
      expect(await store.getTool("other", "b")).toBeNull()
      await store.deleteSource("id-hot")
      expect(await store.getSource("hot")).toBeNull()
      expect(await store.getTool("hot", "a")).toBeNull()
      expect(await store.getSource("other")).toMatchObject({ namespace: "other" })
    })

    it("removing a source removes its tools", async () => {
      await store.insertSource(source("gone"))
      await store.applySync({ sourceId: "id-gone", tools: [tool("x")], encoding: "direct", syncedAt: 1 })
      await store.deleteSource("id-gone")
      expect(await store.getSource("gone")).toBeNull()
      expect(await store.listTools({})).toEqual([])
    })

    it("records an execution with its tool calls, and reads them back", async () => {
      const execution = {
        id: "e1",
        code: "return 1",
        status: "ok" as const,
        startedAt: 1_700_000_000_123,
        durationMs: 12,
        resultText: "1\n\u00e9",
        errorCode: null,
        errorMessage: null,
        logs: [{ level: "log" as const, message: "hi" }],
        toolCallCount: 2,
        keyId: "key-1",
        keepUntil: 1_700_000_360_000,
      }
      const calls = [
        {
          executionId: "e1",
          toolPath: "a.b",
          encoding: "direct",
          startedAt: 1_700_000_000_124,
          durationMs: 3,
          ok: true,
          errorCode: null,
          dataBytes: 10,
          outputSchemaError: null,
        },
        {
          executionId: "e1",
          toolPath: "a.c",
          encoding: "mcp-call-tool-result-v2",
          startedAt: 1_700_000_000_125,
          durationMs: 4,
          ok: false,
          errorCode: "upstream_error",
          dataBytes: null,
          outputSchemaError: null,
        },
      ]
      await store.recordBatch([{ execution, calls }])
      expect(await store.getExecution("e1")).toEqual({ ...execution, calls })
      expect(await store.getExecution("nope")).toBeNull()
    })

    it("records a batch of executions in one call, each with its own calls (statements chunked past 200 rows)", async () => {
      const entries = Array.from({ length: 450 }, (_, i) => ({
        execution: { ...run(`b${i}`), resultText: `result ${i}`, toolCallCount: i % 3 },
        calls: Array.from({ length: i % 3 }, (_, j) => call(`b${i}`, j)),
      }))
      await store.recordBatch(entries)
      for (const i of [0, 1, 2, 199, 200, 201, 449]) {
        expect(await store.getExecution(`b${i}`)).toEqual({ ...entries[i]!.execution, calls: entries[i]!.calls })
      }
      await store.recordBatch([])
    })

    it("a batch of large results is split under the statement size, and stored whole", async () => {
      const big = (id: string, fill: string) => ({
        execution: { ...run(id), resultText: fill.repeat(6 * 1024 * 1024) },
        calls: [],
      })
      await store.recordBatch([big("l1", "a"), big("l2", "b"), big("l3", "c")])
      for (const [id, fill] of [
        ["l1", "a"],
        ["l2", "b"],
        ["l3", "c"],
      ]) {
        const text = (await store.getExecution(id!))?.resultText
        expect(text?.length).toBe(6 * 1024 * 1024)
        expect(text?.startsWith(fill!) && text.endsWith(fill!)).toBe(true)
      }
    })

    it("a batch that fails writes none of its executions or calls", async () => {
      await store.recordBatch([{ execution: run("taken"), calls: [] }])
      await expect(
        store.recordBatch([
          { execution: run("fresh"), calls: [call("fresh", 0)] },
          { execution: run("taken"), calls: [] },
        ]),
      ).rejects.toThrow()
      expect(await store.getExecution("fresh")).toBeNull()
      // rows go through the dialect's prepared insert, if it has one: it fails and rolls back the same way
      await expect(store.recordBatch([{ execution: run("taken"), calls: [call("taken", 1)] }])).rejects.toThrow()
      expect((await store.getExecution("taken"))?.calls).toEqual([])
      await store.recordBatch([{ execution: run("after"), calls: [call("after", 0)] }])
      expect((await store.getExecution("after"))?.calls).toHaveLength(1)
    })

    it("an execution with thousands of tool calls is stored whole (inserts are chunked under parameter limits)", async () => {
      const calls = Array.from({ length: 5_000 }, (_, i) => call("big", i))
      await store.recordBatch([{ execution: { ...run("big"), toolCallCount: 5_000 }, calls }])
      expect((await store.getExecution("big"))?.calls).toHaveLength(5_000)
    })

    it("two syncs of one source at once leave one consistent catalog", async () => {
      await store.insertSource(source("race"))
      await Promise.all([
        store.applySync({ sourceId: "id-race", tools: [tool("a"), tool("b")], encoding: "direct", syncedAt: 1 }),
        store.applySync({ sourceId: "id-race", tools: [tool("b"), tool("c")], encoding: "direct", syncedAt: 2 }),
        store.applySync({ sourceId: "id-race", tools: [tool("a"), tool("b")], encoding: "direct", syncedAt: 3 }),
      ])
      const names = (await store.listTools({ namespace: "race" })).map((t) => t.name)
      expect([
        ["a", "b"],
        ["b", "c"],
      ]).toContainEqual(names)
    })

    it("API keys: shown once, stored only as a hash, verified until revoked", async () => {
      let now = 42
      const keys = createApiKeyService(store, () => now)
      const created = await keys.create("ci", ["execute", "read", "execute"])
      expect(created.key).toMatch(/^sb_[A-Za-z0-9_-]{43}$/)
      expect(created).toMatchObject({ name: "ci", scopes: ["execute", "read"], createdAt: 42 })
      const [row] = await keys.list()
      expect(row).toMatchObject({
        id: created.id,
        name: "ci",
        scopes: ["execute", "read"],
        createdAt: 42,
        revokedAt: null,
      })
      expect(JSON.stringify(row)).not.toContain(created.key.slice(3))
      expect(await keys.verify(created.key)).toMatchObject({ id: created.id })
      expect(await keys.verify(created.key + "x")).toBeNull()
      expect(await keys.verify("Bearer nonsense")).toBeNull()
      now = 50
      expect(await keys.revoke(created.id)).toBe(true)
      expect(await keys.verify(created.key)).toBeNull()
      // revoking again is no error, and keeps the first revocation's time (DELETE /v1/keys/:id relies on both)
      now = 60
      expect(await keys.revoke(created.id)).toBe(true)
      expect((await keys.list())[0]).toMatchObject({ id: created.id, revokedAt: 50 })
      expect(await keys.revoke("nope")).toBe(false)
      await expect(keys.create("bad", ["root" as never])).rejects.toThrow(/unknown scope "root"/)
      await expect(keys.create("none", [])).rejects.toThrow(/at least one scope/)
    })

    it("API keys stored before scopes were checked (`*`) stay admin; the row is not rewritten", async () => {
      await store.insertApiKey({ id: "old", name: "old", hash: "h-old", scopes: ["*"], createdAt: 1, revokedAt: null })
      const row = await store.findApiKey("h-old")
      expect(row?.scopes).toEqual(["*"])
      expect(callerOf(row!)).toEqual({ keyId: "old", scope: "admin" })
    })

    describe("tool shapes", () => {
      let toolId: string
      beforeEach(async () => {
        await store.insertSource(source("everything"))
        await store.applySync({
          sourceId: "id-everything",
          tools: [tool("echo")],
          encoding: "mcp-call-tool-result-v2",
          syncedAt: 1,
        })
        toolId = (await store.getTool("everything", "echo"))!.id
      })

      const observe = (value: unknown, at: number, encoding = "mcp-call-tool-result-v2", samples = 1) => ({
        toolId,
        encoding,
        shape: inferShape(value),
        samples,
        at,
      })

      it("inserts, then merges in one batch: counts add up, first kept, last moved", async () => {
        expect(await store.getShape(toolId, "mcp-call-tool-result-v2")).toBeNull()
        await store.mergeShapes(
          [observe({ id: 1, next: "c" }, 1_000), observe({ id: 2 }, 3_000, undefined, 2)],
          mergeStoredShapes,
        )
        await store.mergeShapes([observe({ id: 3, next: null }, 2_000)], mergeStoredShapes)
        const stored = await store.getShape(toolId, "mcp-call-tool-result-v2")
        expect(stored).toMatchObject({ sampleCount: 4, firstSeenAt: 1_000, lastSeenAt: 3_000 })
        expect(shapeToTypeScript(normalizeShape(stored?.shape))).toBe("{\n  id: number\n  next?: string | null\n}")
      })

      it("keeps shapes per encoding apart", async () => {
        await store.mergeShapes([observe({ content: [] }, 1, "direct"), observe("text", 2)], mergeStoredShapes)
        expect(shapeToTypeScript(normalizeShape((await store.getShape(toolId, "direct"))?.shape))).toBe(
          "{\n  content: unknown[]\n}",
        )
        expect(
          shapeToTypeScript(normalizeShape((await store.getShape(toolId, "mcp-call-tool-result-v2"))?.shape)),
        ).toBe("string")
      })

      it("skips an observation for a tool a re-sync removed, and keeps the rest of the batch", async () => {
        await store.mergeShapes(
          [{ toolId: "gone", encoding: "direct", shape: inferShape(1), samples: 1, at: 1 }, observe(1, 5)],
          mergeStoredShapes,
        )
        expect(await store.getShape("gone", "direct")).toBeNull()
        expect((await store.getShape(toolId, "mcp-call-tool-result-v2"))?.sampleCount).toBe(1)
      })

      it("a merge that throws rolls the whole batch back", async () => {
        await store.mergeShapes([observe(1, 1)], mergeStoredShapes)
        const failing = () => {
          throw new Error("boom")
        }
        await expect(store.mergeShapes([observe(2, 2)], failing)).rejects.toThrow("boom")
        expect((await store.getShape(toolId, "mcp-call-tool-result-v2"))?.sampleCount).toBe(1)
      })

      it("a __proto__ key survives the JSON column", async () => {
        await store.mergeShapes([observe(JSON.parse('{"__proto__": {"a": 1}}'), 1)], mergeStoredShapes)
        await store.mergeShapes([observe(JSON.parse('{"__proto__": {"a": 2, "b": true}}'), 2)], mergeStoredShapes)
        const stored = await store.getShape(toolId, "mcp-call-tool-result-v2")
        expect(shapeToTypeScript(normalizeShape(stored?.shape))).toBe(
          "{\n  __proto__: {\n    a: number\n    b?: boolean\n  }\n}",
        )
      })

      it("concurrent batches for one tool lose no sample", async () => {
        await Promise.all(
          Array.from({ length: 6 }, (_, i) => store.mergeShapes([observe({ i }, i + 1)], mergeStoredShapes)),
        )
        expect((await store.getShape(toolId, "mcp-call-tool-result-v2"))?.sampleCount).toBe(6)
      })
    })

    describe("atomic batches and statement limits", () => catalogStoreWritesContract(() => subject))
    describe("retention", () => catalogStoreRetentionContract(() => subject))
    describe("listing executions", () => catalogStoreListingContract(() => subject))
    describe("policies", () => catalogStorePoliciesContract(() => subject))
    describe("approvals", () => catalogStoreApprovalsContract(() => subject))
    describe("result texts a page at a time", () => catalogStoreResultsContract(() => subject))
    describe("shared schema definitions", () => catalogStoreDefinitionsContract(() => subject))
  })
