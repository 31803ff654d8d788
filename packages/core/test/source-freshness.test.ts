/**
 * Catalog freshness on Effect's clock: a source older than the TTL is re-synced before its tools are next used,
 * concurrent triggers share one sync, and a failed lazy re-sync is not retried for 30 s. Time moves with
 * `TestClock.adjust`, so nothing here sleeps.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { SourceRow } from "../src/catalog/rows.js"
import { Services, silentLogger } from "../src/index.js"
import type { SourcePlugin } from "../src/index.js"
import { openSqliteStore } from "./sqlite-store.js"

const TTL_MS = 500

/** A plugin whose one source lists one tool, and fails its discovery while `down` is set. */
const countingPlugin = () => {
  const state = { discovers: 0, down: false }
  const plugin = {
    kind: "fake",
    redactConfig: (config: unknown) => config,
    discover: async () => {
      state.discovers++
      if (state.down) return { ok: false as const, message: "the server is down" }
      const tool = { name: "t", description: null, inputSchema: {}, outputSchema: null, annotations: null }
      return { ok: true as const, discovery: { tools: [tool], encoding: "direct" } }
    },
  } as Partial<SourcePlugin> as SourcePlugin
  return { plugin, state }
}

/** The sources service over a SQLite store, with one source synced at the test clock's "now". */
const setup = Effect.fn(function* (syncTtlMs: number) {
  const opened = yield* Effect.acquireRelease(
    Effect.sync(() => openSqliteStore()),
    (o) => Effect.sync(() => o.close()),
  )
  const { plugin, state } = countingPlugin()
  const layer = Services.Sources.layer({ syncTtlMs }).pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(Services.CatalogStore, opened.store),
        Layer.succeed(Services.SourcePlugins, [plugin]),
        Layer.succeed(Services.Logger, silentLogger),
        Services.StaleSources.layer,
      ),
    ),
  )
  const sources = yield* Effect.provide(Services.Sources, layer)
  const now = yield* Services.nowFrom
  yield* Effect.promise(() =>
    opened.store.insertSource({
      id: "s1",
      namespace: "fake",
      kind: "fake",
      config: {},
      status: "ready",
      lastSyncedAt: now(),
      syncError: null,
      createdAt: now(),
      updatedAt: now(),
    }),
  )
  const ensureFresh = Effect.fn(function* () {
    return yield* Effect.promise(async () => sources.ensureFresh((await opened.store.getSource("fake")) as SourceRow))
  })
  return { state, ensureFresh }
})

it.effect(
  "a source is used as it is until the TTL passes; then the next use re-syncs it, once for concurrent uses",
  () =>
    Effect.gen(function* () {
      const { state, ensureFresh } = yield* setup(TTL_MS)
      yield* ensureFresh()
      assert.strictEqual(state.discovers, 0)
      yield* TestClock.adjust(TTL_MS - 1)
      yield* ensureFresh()
      assert.strictEqual(state.discovers, 0)
      yield* TestClock.adjust(1)
      yield* Effect.all(
        Array.from({ length: 8 }, () => ensureFresh()),
        { concurrency: "unbounded" },
      )
      assert.strictEqual(state.discovers, 1)
      yield* ensureFresh()
      assert.strictEqual(state.discovers, 1)
    }),
)

it.effect("a failed lazy re-sync serves the old catalog, and is not tried again for 30 s", () =>
  Effect.gen(function* () {
    const { state, ensureFresh } = yield* setup(15 * 60_000)
    state.down = true
    yield* TestClock.adjust(15 * 60_000)
    const served = yield* ensureFresh()
    assert.strictEqual(state.discovers, 1)
    assert.strictEqual(served.namespace, "fake")
    yield* TestClock.adjust(29_999)
    yield* ensureFresh()
    assert.strictEqual(state.discovers, 1)
    state.down = false
    yield* TestClock.adjust(1)
    yield* ensureFresh()
    assert.strictEqual(state.discovers, 2)
  }),
)
