/** The retention fiber on the test clock: a round a minute, a failed one logged, and a close that waits for its batch. */
import { assert, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Scope } from "effect"
import { TestClock } from "effect/testing"
import { Services } from "@switchboard/core"
import type * as Catalog from "@switchboard/core/catalog"
import type { CatalogStore, Logger } from "@switchboard/core"
import { retentionLayer } from "./retention.js"

const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

it.effect("prunes a minute after start and each interval after; a failed round is logged, and the next runs", () =>
  Effect.gen(function* () {
    const asked: Catalog.PruneOptions[] = []
    let hold: (() => void) | undefined
    const store = {
      pruneExecutions: async (_policy: unknown, options: Catalog.PruneOptions): Promise<Catalog.PruneReport> => {
        asked.push(options)
        if (asked.length === 1) throw new Error("disk I/O error")
        // the third prune is under way until the test lets it end
        if (asked.length === 3) await new Promise<void>((resolve) => (hold = resolve))
        return { deleted: 2, batches: 1, done: true }
      },
    } as Partial<CatalogStore> as CatalogStore
    const lines: string[] = []
    const logger: Logger = {
      error: (message, details) => void lines.push(`error ${message} ${JSON.stringify(details)}`),
      warn: () => {},
      info: (message, details) => void lines.push(`info ${message} ${JSON.stringify(details)}`),
    }
    const layer = retentionLayer({ maxAgeMs: 1_000, everyMs: 5 * 60_000 }).pipe(
      Layer.provide(
        Layer.mergeAll(Layer.succeed(Services.CatalogStore, store), Layer.succeed(Services.Logger, logger)),
      ),
    )
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(layer, scope)

    yield* TestClock.adjust(59_999)
    yield* realPause
    assert.strictEqual(asked.length, 0)
    yield* TestClock.adjust(1)
    yield* realPause
    assert.deepStrictEqual(
      asked.map((o) => o.now),
      [60_000],
    )
    assert.match(lines[0]!, /^error retention: a prune failed; the next runs as usual .*disk I\/O error/)

    yield* TestClock.adjust(5 * 60_000)
    yield* realPause
    assert.strictEqual(asked[1]!.now, 360_000)
    assert.strictEqual(lines[1], 'info retention: pruned executions {"deleted":2,"batches":1,"done":true}')

    // closing while a prune runs: its signal is aborted, and the close waits for it to end
    yield* TestClock.adjust(5 * 60_000)
    yield* realPause
    assert.strictEqual(asked.length, 3)
    const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
    yield* realPause
    assert.isTrue(asked[2]!.signal?.aborted)
    assert.isUndefined(closing.pollUnsafe())
    hold!()
    yield* Fiber.join(closing)
    yield* TestClock.adjust(60 * 60_000)
    yield* realPause
    assert.strictEqual(asked.length, 3)
  }),
)
