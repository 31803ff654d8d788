/**
 * core's merged layer: from the seams alone it builds every service, and each service gets the options given for it.
 * The code runtime is a stand-in that runs nothing: core may not import a runtime, and no script runs here.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { OPEN_CALLER } from "../src/auth/scopes.js"
import { Services, silentLogger } from "../src/index.js"
import type { CodeRuntime } from "../src/index.js"
import { TelemetrySink } from "../src/services/host-seams.js"
import { openSqliteStore } from "./sqlite-store.js"

const seams = (store: ReturnType<typeof openSqliteStore>["store"]) =>
  Layer.mergeAll(
    Layer.succeed(Services.CatalogStore, store),
    Layer.succeed(Services.SourcePlugins, []),
    Layer.succeed(Services.CodeRuntime, {} as CodeRuntime),
    Layer.succeed(Services.Logger, silentLogger),
    Services.StaleSources.layer,
  )

it.effect("coreLayer builds the approvals, executor, keys, policies, sources and telemetry from the seams", () =>
  Effect.gen(function* () {
    const opened = yield* Effect.acquireRelease(
      Effect.sync(() => openSqliteStore()),
      (o) => Effect.sync(() => o.close()),
    )
    const layer = Services.coreLayer({ policies: { approvals: false } }).pipe(Layer.provide(seams(opened.store)))
    const built = yield* Effect.provide(
      Effect.all({
        approvals: Services.Approvals,
        executor: Services.Executor,
        keys: Services.ApiKeys,
        policies: Services.Policies,
        sources: Services.Sources,
        telemetry: TelemetrySink,
      }),
      layer,
    )
    assert.strictEqual(built.policies.approvals, false)
    assert.deepStrictEqual(yield* Effect.promise(() => built.sources.list(OPEN_CALLER)), [])
    assert.deepStrictEqual(yield* Effect.promise(() => built.keys.list()), [])
    assert.strictEqual(built.telemetry, opened.store)
  }).pipe(Effect.scoped),
)

it.effect("coreLayer's policies ask for approvals unless told not to", () =>
  Effect.gen(function* () {
    const opened = yield* Effect.acquireRelease(
      Effect.sync(() => openSqliteStore()),
      (o) => Effect.sync(() => o.close()),
    )
    const policies = yield* Effect.provide(
      Services.Policies,
      Services.coreLayer().pipe(Layer.provide(seams(opened.store))),
    )
    assert.strictEqual(policies.approvals, true)
  }).pipe(Effect.scoped),
)
