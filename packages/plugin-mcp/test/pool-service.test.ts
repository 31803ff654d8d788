/**
 * The pool as a scoped service: its failures are typed errors in the Effect error channel (never defects), and
 * closing its scope closes every connection it holds.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { fixtureCommand } from "@switchboard/fixtures"
import { spawnNodeStdio } from "../src/node/index.js"
import { ConnectionPool, NotProcessed } from "../src/pool.js"
import type { McpConnection } from "../src/connection.js"
import type { McpSourceConfig } from "../src/config.js"

const options = (allowStdio: boolean) => ({
  policy: { allowStdio, spawnStdio: spawnNodeStdio },
  connectTimeoutMs: 20_000,
  idleTimeToLiveMs: 60_000,
  onToolsChanged: () => {},
})
const contract: McpSourceConfig = { transport: { type: "stdio", ...fixtureCommand("contract-stdio"), env: {} } }

describe("ConnectionPool", () => {
  it.effect("a connect this server refuses is a typed ConnectFailed, with the refusal's code", () =>
    Effect.gen(function* () {
      const pool = yield* ConnectionPool.make(options(false))
      const error = yield* Effect.flip(pool.withConnection("s1", contract, () => Effect.succeed(1)))
      assert.strictEqual(error._tag, "ConnectFailed")
      assert.strictEqual(error._tag === "ConnectFailed" && error.refused, "source_disabled")
    }),
  )

  it.effect("a host without a stdio spawner (Workers) refuses stdio sources the same way", () =>
    Effect.gen(function* () {
      const pool = yield* ConnectionPool.make({ ...options(true), policy: { allowStdio: true } })
      const error = yield* Effect.flip(pool.withConnection("s0", contract, () => Effect.succeed(1)))
      assert.strictEqual(error._tag === "ConnectFailed" && error.refused, "source_disabled")
      assert.match(error.message, /cannot start processes/)
    }),
  )

  it.effect("a host without a spawner says its own words, never the flag of a host that has one", () =>
    Effect.gen(function* () {
      const message = "stdio sources run a local command, and stdio sources cannot run on Cloudflare Workers"
      const pool = yield* ConnectionPool.make({
        ...options(true),
        policy: { allowStdio: false, stdioUnavailableMessage: message },
      })
      const error = yield* Effect.flip(pool.withConnection("s0", contract, () => Effect.succeed(1)))
      assert.strictEqual(error._tag === "ConnectFailed" && error.refused, "source_disabled")
      assert.strictEqual(error.message, message)
      assert.notMatch(error.message, /--allow-stdio/)
    }),
  )

  it.live("a request lost twice is a typed ConnectFailed, after one more try on a new connection", () =>
    Effect.gen(function* () {
      const pool = yield* ConnectionPool.make(options(true))
      const seen: McpConnection[] = []
      const error = yield* Effect.flip(
        pool.withConnection("s2", contract, (connection) =>
          Effect.suspend(() => {
            seen.push(connection)
            return Effect.fail(new NotProcessed({ cause: new Error("session gone") }))
          }),
        ),
      )
      assert.strictEqual(error._tag, "ConnectFailed")
      assert.match(error.message, /not taken on a new session either/)
      assert.strictEqual(seen.length, 2)
      assert.notStrictEqual(seen[0], seen[1])
    }),
  )

  it.live("closing the pool's scope closes the connections it holds", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const pool = yield* Scope.provide(ConnectionPool.make(options(true)), scope)
      const connection = yield* pool.withConnection("s3", contract, (c) => Effect.succeed(c))
      assert.isTrue(connection.isOpen())
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(connection.isOpen())
    }),
  )
})
