/**
 * What a resume checks before it acts for the run it resumes.
 *
 * It runs past its pause at most once. The approved call may act on the world (write a file, send a
 * payment): a resume that made it and then could not record its end (the store failed, or the server died) is not
 * made again when another server takes the approval over once the lease passed; that one records the execution as
 * `resume_interrupted` instead. A resume that ended before the pause (it only replayed) is safe to run again.
 * It acts for the key that made the run only while that key may still execute: a key revoked while its run waited
 * for a person gets nothing more done (`key_revoked`), whoever approves.
 * Over a real SQLite file; the script is a JavaScript stand-in for the sandbox, as in executor-signals.test.ts.
 */
import { afterEach, beforeEach, expect, it } from "vitest"
import type { ApprovalRow } from "../src/catalog/rows.js"
import type { CatalogStore, CodeRuntime, SourcePlugin } from "../src/index.js"
import { executorOver, openStoreWithFakeSource } from "./sqlite-store.js"

let opened: Awaited<ReturnType<typeof openStoreWithFakeSource>>
let store: CatalogStore
beforeEach(async () => {
  opened = await openStoreWithFakeSource("write")
  store = opened.store
  await store.insertPolicy({
    id: "p1",
    pattern: "fake.write",
    source: null,
    annotation: null,
    action: "require_approval",
    reason: "writes",
    origin: "api",
    createdAt: 1,
  })
})
afterEach(() => opened.close())

/** every call that reached the source */
let made: string[] = []
const plugin = {
  kind: "fake",
  invoke: async (_source, tool, args) => {
    made.push(`${tool} ${JSON.stringify(args)}`)
    return { ok: true as const, raw: { wrote: true } }
  },
} as Pick<SourcePlugin, "kind" | "invoke"> as SourcePlugin
beforeEach(() => {
  made = []
})

/** `await tools.fake.write({ text: "x" })`; a pause's signal stops it, as it stops the sandbox */
const runtime: CodeRuntime = {
  run: async (_code, options) => {
    const stopped = new Promise<null>((resolve) => options.signal?.addEventListener("abort", () => resolve(null)))
    const wrote = await Promise.race([options.invoke("fake.write", { text: "x" }), stopped])
    if (!wrote) return { ok: false, error: { code: "aborted", message: "stopped" }, logs: [] }
    return { ok: true, value: wrote.ok, logs: [] }
  },
}

/** a store whose `completeResume` fails `failures` times, as a database that went away for a moment */
const flaky = (failures: number): CatalogStore => ({
  ...store,
  completeResume: async (...args) => {
    if (failures-- > 0) throw new Error("database is locked")
    return store.completeResume(...args)
  },
})

const pauseAndApprove = async (over: CatalogStore, keyId: string | null = null) => {
  const executor = executorOver(over, runtime, plugin)
  const paused = await executor.run({ code: "write" }, undefined, { keyId })
  expect(paused).toMatchObject({ status: "paused", stored: true })
  const [pending] = await store.listApprovals({ status: "pending", limit: 1 })
  const approved = await store.decideApproval({
    id: pending!.id,
    status: "approved",
    note: null,
    by: null,
    at: 10,
    leaseUntil: 20,
  })
  return { executor, approved: approved! }
}

it("a resume that made the approved call and could not record its end is not made again by the next claimer", async () => {
  const { executor, approved } = await pauseAndApprove(flaky(1))
  const first = await executor.resume(approved)
  expect(first).toMatchObject({ stored: false })
  expect(made).toEqual(['write {"text":"x"}'])

  // the lease passed: another server (here, the same executor) takes it over
  const [claimed] = await store.claimResumes(Date.now() + 1_000, Date.now() + 100_000, 16)
  expect(claimed?.id).toBe(approved.id)
  const second = await executor.resume(claimed!)
  expect(made).toEqual(['write {"text":"x"}'])
  expect(second).toMatchObject({ ok: false, stored: true, error: { code: "resume_interrupted" } })
  const execution = await store.getExecution(approved.executionId)
  expect(execution).toMatchObject({ status: "error", errorCode: "resume_interrupted" })
  expect(execution?.errorMessage).toContain("fake.write")
  expect((await store.getApproval(approved.id))?.resumedAt).not.toBeNull()
})

it("a resume that never reached the pause (its sandbox refused it) runs in full when taken over", async () => {
  const { approved } = await pauseAndApprove(store)
  const refusing = executorOver(
    store,
    { run: async () => ({ ok: false, error: { code: "overloaded", message: "no room" }, logs: [] }) },
    plugin,
  )
  expect(await refusing.resume(approved)).toMatchObject({ _tag: "Overloaded" })
  const [claimed] = await store.claimResumes(Date.now() + 1_000, Date.now() + 100_000, 16)
  const resumed = await executorOver(store, runtime, plugin).resume(claimed as ApprovalRow)
  expect(resumed).toMatchObject({ ok: true, stored: true, result: true })
  expect(made).toEqual(['write {"text":"x"}'])
})

it("a key revoked while its run waited: the approved resume calls nothing, and the execution ends key_revoked", async () => {
  await store.insertApiKey({ id: "k1", name: "agent", hash: "h1", scopes: ["execute"], createdAt: 1, revokedAt: null })
  const { executor, approved } = await pauseAndApprove(store, "k1")
  await store.revokeApiKey("k1", 50)
  const resumed = await executor.resume(approved)
  expect(made).toEqual([])
  expect(resumed).toMatchObject({ ok: false, stored: true, error: { code: "key_revoked" } })
  expect(await store.getExecution(approved.executionId)).toMatchObject({ status: "error", errorCode: "key_revoked" })
})

it("a key that may still execute: the resume runs as it would without keys", async () => {
  await store.insertApiKey({ id: "k2", name: "agent", hash: "h2", scopes: ["execute"], createdAt: 1, revokedAt: null })
  const { executor, approved } = await pauseAndApprove(store, "k2")
  expect(await executor.resume(approved)).toMatchObject({ ok: true, result: true })
  expect(made).toEqual(['write {"text":"x"}'])
})
