/**
 * The host's resources are scoped: the database, the MCP connections, the worker pool and the grep worker are
 * released in reverse order of acquisition when the host closes, and also when a later step of its start fails
 * or the start is interrupted, so a failed start leaves no open file and no worker thread behind.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterEach, beforeEach, expect, it } from "vitest"
import { Data, Effect, Exit, Layer } from "effect"
import { Services, defaultLimits } from "@switchboard/core"
import type { CodeRuntime } from "@switchboard/core"
import type { WorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"
import { buildHost, createHost, hostLayer } from "../../src/compose.js"
import { memoryLogger, tempDir } from "../support/helpers.js"

class LaterStepFailed extends Data.TaggedError("LaterStepFailed")<{ message: string }> {}

let dir: ReturnType<typeof tempDir>
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => dir.remove())

const options = () => ({ db: join(dir.dir, "catalog.db"), workers: 2, logger: memoryLogger().logger })

it("while the host is open its SQLite file has its -wal beside it (what the tests below check is gone)", async () => {
  const host = await createHost(options())
  expect(existsSync(`${options().db}-wal`)).toBe(true)
  await host.close()
  expectSqliteClosed(options().db)
})

/** What the host had acquired, caught by a step built after all of it. */
const captured: { runtime?: CodeRuntime } = {}
const capture = Effect.gen(function* () {
  captured.runtime = yield* Services.CodeRuntime
})

/** SQLite removes a WAL database's -wal and -shm files when its last connection closes, and only then. */
const expectSqliteClosed = (db: string) => {
  expect(existsSync(`${db}-wal`)).toBe(false)
  expect(existsSync(`${db}-shm`)).toBe(false)
}

const expectReleased = async (db: string) => {
  expectSqliteClosed(db)
  // the worker pool is closed: its threads are terminated and it refuses new runs
  const pool = captured.runtime as WorkerPoolRuntime
  expect(pool.stats()).toMatchObject({ idle: 0, busy: 0 })
  const outcome = await pool.run("return 1", {
    invoke: async () => ({ ok: true, data: null }),
    limits: defaultLimits,
  })
  expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringMatching(/closed/) } })
}

it("a step that fails after the database and the worker pool were acquired releases both, and the start rejects with its error", async () => {
  const failing = Layer.effectDiscard(
    Effect.andThen(capture, Effect.fail(new LaterStepFailed({ message: "a later step failed" }))),
  ).pipe(Layer.provideMerge(hostLayer(options())))
  await expect(buildHost(failing)).rejects.toMatchObject({ _tag: "LaterStepFailed" })
  await expectReleased(options().db)
})

it("a start interrupted after acquiring its resources releases them", async () => {
  const interrupted = Layer.effectDiscard(Effect.andThen(capture, Effect.interrupt)).pipe(
    Layer.provideMerge(hostLayer(options())),
  )
  const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(interrupted)))
  expect(Exit.hasInterrupts(exit)).toBe(true)
  await expectReleased(options().db)
})

it("close releases what the host acquired", async () => {
  const host = await createHost(options())
  captured.runtime = host.runtime
  await host.close()
  await expectReleased(options().db)
})
