/**
 * The catalog converges by itself: on `tools/list_changed`, on an upstream "unknown tool", and on the TTL,
 * with concurrent triggers sharing one sync.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer, tempDir } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

const setup = async (options: { silent: boolean; syncTtlMs?: number; clock?: Clock.Clock }) => {
  const dir = tempDir()
  const modeFile = join(dir.dir, "mode")
  const logFile = join(dir.dir, "requests.log")
  writeFileSync(logFile, "")
  const server: TestServer = await startTestServer({
    allowStdio: true,
    syncTtlMs: options.syncTtlMs,
    clock: options.clock,
  })
  cleanups.push(
    () => dir.remove(),
    () => server.stop(),
  )
  const env: Record<string, string> = {
    RAW_MODE_FILE: modeFile,
    RAW_LOG_FILE: logFile,
    ...(options.silent ? { RAW_SILENT: "1" } : {}),
  }
  const added = await server.request("POST", "/v1/sources", {
    namespace: "raw",
    kind: "mcp",
    transport: { type: "stdio", ...fixtureCommand("raw-server"), env },
  })
  expect(added.status).toBe(201)
  const listRequests = () =>
    readFileSync(logFile, "utf8")
      .split("\n")
      .filter((l) => l === "tools/list").length
  const toolNames = async () =>
    (await server.request("GET", "/v1/tools?namespace=raw")).body.tools.map((t: { name: string }) => t.name) as string[]
  return { server, modeFile, listRequests, toolNames }
}

const eventually = async (check: () => Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error("condition not met in time")
}

it("tools/list_changed marks the source stale; the next listing re-syncs and drops the vanished tool", async () => {
  const { modeFile, toolNames } = await setup({ silent: false })
  expect(await toolNames()).toContain("ok_tool")
  writeFileSync(modeFile, "drop_tool")
  await eventually(async () => !(await toolNames()).includes("ok_tool"))
  expect((await toolNames()).length).toBe(8)
})

it("an upstream 'unknown tool' re-syncs the source, then answers from the fresh catalog", async () => {
  const { server, modeFile, toolNames } = await setup({ silent: true })
  writeFileSync(modeFile, "drop_tool")
  const response = await server.execute(`return await tools.raw.ok_tool({})`)
  expect(response.result).toMatchObject({ ok: false, error: { code: "tool_not_found" } })
  expect(await toolNames()).not.toContain("ok_tool")
})

// the host's clock is the test's: the TTL passes with TestClock.adjust, not with a sleep
it.effect("after the TTL a call re-syncs first, and concurrent triggers share one sync", () =>
  Effect.gen(function* () {
    const clock = yield* Clock.Clock
    const { server, modeFile, listRequests, toolNames } = yield* Effect.promise(() =>
      setup({ silent: true, syncTtlMs: 500, clock }),
    )
    const before = listRequests()
    writeFileSync(modeFile, "drop_tool")
    yield* TestClock.adjust(500)
    const responses = yield* Effect.promise(() =>
      Promise.all(
        Array.from({ length: 8 }, () => server.execute(`return (await tools.raw.array_structured({})).data`)),
      ),
    )
    for (const response of responses) expect(response.result).toEqual([1, 2, 3])
    expect(listRequests() - before).toBe(1)
    expect(yield* Effect.promise(() => toolNames())).not.toContain("ok_tool")
  }),
)
