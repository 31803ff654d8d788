import { expect, it } from "vitest"
import { run } from "../../test/catalog-store.shared.js"
import type { ExecutionEntry, TelemetrySink } from "../seams.js"
import { createGroupCommit } from "./group-commit.js"

/** the next event-loop turn: records issued after it belong to another turn than those before */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** A sink whose batches commit (or fail) only when the test says so. */
const manualSink = () => {
  const batches: { ids: string[]; commit: () => void; fail: (cause: unknown) => void }[] = []
  let wrote: () => void = () => {}
  const sink: TelemetrySink = {
    recordBatch: (entries: readonly ExecutionEntry[]) =>
      new Promise<void>((commit, fail) => {
        batches.push({ ids: entries.map((e) => e.execution.id), commit, fail })
        wrote()
      }),
  }
  const nextWrite = () => new Promise<void>((resolve) => (wrote = resolve))
  return { sink, batches, nextWrite }
}

/** a promise's state, read without waiting for it */
const settled = async (promise: Promise<unknown>) => {
  const marker = {}
  const state = await Promise.race([
    promise.then(
      () => "resolved",
      () => "rejected",
    ),
    Promise.resolve(marker),
  ])
  return state === marker ? "pending" : state
}

it("writes the records of one turn in one batch, in order, and answers each only once it commits", async () => {
  const { sink, batches, nextWrite } = manualSink()
  const records = createGroupCommit(sink)
  const written = nextWrite()
  const pending = ["a", "b", "c"].map((id) => records.record(run(id), []))
  await written
  expect(batches.map((b) => b.ids)).toEqual([["a", "b", "c"]])
  expect(await settled(pending[0]!)).toBe("pending")
  batches[0]!.commit()
  await Promise.all(pending)
})

it("closes a batch at maxBatch", async () => {
  const calls: string[][] = []
  const records = createGroupCommit(
    { recordBatch: async (entries) => void calls.push(entries.map((e) => e.execution.id)) },
    { maxBatch: 4 },
  )
  await Promise.all(Array.from({ length: 10 }, (_, i) => records.record(run(`r${i}`), [])))
  expect(calls).toEqual([
    ["r0", "r1", "r2", "r3"],
    ["r4", "r5", "r6", "r7"],
    ["r8", "r9"],
  ])
  expect(() => createGroupCommit({ recordBatch: async () => {} }, { maxBatch: 0 })).toThrow(/maxBatch/)
})

it("writes one batch at a time: records from later turns wait and go together in the next", async () => {
  const { sink, batches, nextWrite } = manualSink()
  const records = createGroupCommit(sink)
  let written = nextWrite()
  const first = records.record(run("first"), [])
  await written
  const later: Promise<void>[] = []
  for (const id of ["x", "y", "z"]) {
    later.push(records.record(run(id), []))
    await nextTurn()
  }
  expect(batches).toHaveLength(1)
  written = nextWrite()
  batches[0]!.commit()
  await first
  await written
  expect(batches.map((b) => b.ids)).toEqual([["first"], ["x", "y", "z"]])
  batches[1]!.commit()
  await Promise.all(later)
})

it("a failed batch rejects every caller in it, and the next batch still writes", async () => {
  const { sink, batches, nextWrite } = manualSink()
  const records = createGroupCommit(sink)
  let written = nextWrite()
  const failing = ["a", "b"].map((id) => records.record(run(id), []))
  await written
  const boom = new Error("disk full")
  batches[0]!.fail(boom)
  for (const p of failing) await expect(p).rejects.toBe(boom)
  written = nextWrite()
  const next = records.record(run("c"), [])
  await written
  batches[1]!.commit()
  await next
  expect(batches.map((b) => b.ids)).toEqual([["a", "b"], ["c"]])
})

it("a sink that throws instead of rejecting fails its batch the same way", async () => {
  let calls = 0
  const records = createGroupCommit({
    recordBatch: (): Promise<void> => {
      if (++calls === 1) throw new Error("sync failure")
      return Promise.resolve()
    },
  })
  const failing = [records.record(run("a"), []), records.record(run("b"), [])]
  for (const p of failing) await expect(p).rejects.toThrow("sync failure")
  await records.record(run("c"), [])
  expect(calls).toBe(2)
})

it("while other executions are running, a batch waits for them (up to holdMs) instead of committing each alone", async () => {
  const { sink, batches } = manualSink()
  let running = 2
  const records = createGroupCommit(sink, { running: () => running, holdMs: 50 })
  const first = records.record(run("a"), [])
  await nextTurn()
  // the turn ended with two executions still running: nothing written yet
  expect(batches).toEqual([])
  running = 1
  const second = records.record(run("b"), [])
  running = 0
  const third = records.record(run("c"), [])
  await nextTurn()
  // the last one running has joined: the batch goes at the end of that turn, long before the hold ends
  expect(batches.map((b) => b.ids)).toEqual([["a", "b", "c"]])
  batches[0]!.commit()
  await Promise.all([first, second, third])
})

it("a batch held for executions that never finish goes when the hold ends", async () => {
  const { sink, batches } = manualSink()
  const records = createGroupCommit(sink, { running: () => 1, holdMs: 5 })
  const only = records.record(run("a"), [])
  await nextTurn()
  expect(batches).toEqual([])
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(batches.map((b) => b.ids)).toEqual([["a"]])
  batches[0]!.commit()
  await only
})
