/**
 * The store contract's listing of executions, run by every implementation within catalogStoreContract:
 * `listExecutions` pages newest first by id (UUIDv7, so by start time), filters by status, key, error code and the
 * source a call went to, and sums up each execution without its texts: the result's length (whole, where it is
 * stored in parts) and the code's first line.
 */
import { beforeEach, expect, it } from "vitest"
import { timeOrderedId } from "../src/index.js"
import type { CatalogStore, ExecutionEntry, ExecutionRecord } from "../src/index.js"
import { SCAN_WINDOW } from "../src/catalog/execution-listing.js"
import { call, run } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const T0 = 1_700_000_000_000

/** n executions with time-ordered ids, oldest first, as the executor makes them */
const made = (n: number, extra: (i: number) => Partial<ExecutionRecord> = () => ({})): ExecutionRecord[] =>
  Array.from({ length: n }, (_, i) => ({ ...run(timeOrderedId()), startedAt: T0 + i, ...extra(i) }))

const entries = (executions: ExecutionRecord[]): ExecutionEntry[] =>
  executions.map((execution) => ({ execution, calls: [] }))

const newestFirst = (executions: ExecutionRecord[]) => executions.map((e) => e.id).reverse()

export const catalogStoreListingContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })
  const listed = async (query: Parameters<CatalogStore["listExecutions"]>[0]) =>
    (await store.listExecutions(query)).executions
  const ids = async (query: Parameters<CatalogStore["listExecutions"]>[0]) =>
    (await listed(query)).map((summary) => summary.id)

  it("lists executions newest first, at most `limit`, each summed up without its texts", async () => {
    const [older, newer] = made(2)
    const failed: ExecutionRecord = {
      ...newer!,
      code: "// fetch the user\nconst u = await tools.a.b({})\nreturn u",
      status: "error",
      durationMs: 42,
      resultText: null,
      errorCode: "runtime_error",
      errorMessage: "boom",
      logs: [{ level: "log", message: "x".repeat(1000) }],
      toolCallCount: 2,
      keyId: "key-1",
    }
    // recorded in another order than made: the listing orders by id, not by when a row was written
    await store.recordBatch([{ execution: failed, calls: [call(failed.id, 0), call(failed.id, 1)] }])
    await store.recordBatch(entries([older!]))

    expect(await listed({ limit: 10 })).toEqual([
      {
        id: failed.id,
        status: "error",
        startedAt: T0 + 1,
        durationMs: 42,
        errorCode: "runtime_error",
        toolCallCount: 2,
        keyId: "key-1",
        resultChars: null,
        codePreview: "// fetch the user",
      },
      {
        id: older!.id,
        status: "ok",
        startedAt: T0,
        durationMs: 1,
        errorCode: null,
        toolCallCount: 0,
        keyId: null,
        resultChars: 1,
        codePreview: "return 1",
      },
    ])
    expect(await ids({ limit: 1 })).toEqual([failed.id])
    expect(await store.listExecutions({ limit: 5, keyId: "nobody" })).toEqual({ executions: [] })
    // SQLite reads LIMIT -1 as no limit at all: a listing never reads every row
    for (const limit of [0, -1, 1.5, Number.NaN])
      await expect(store.listExecutions({ limit })).rejects.toThrow(RangeError)
  })

  it("pages with `before`: each page starts after the last id of the one before, and the last is empty", async () => {
    const executions = made(5)
    await store.recordBatch(entries(executions))
    const all = newestFirst(executions)
    expect(await ids({ limit: 2 })).toEqual(all.slice(0, 2))
    expect(await ids({ limit: 2, before: all[1] })).toEqual(all.slice(2, 4))
    expect(await ids({ limit: 2, before: all[3] })).toEqual(all.slice(4))
    expect(await ids({ limit: 2, before: all[4] })).toEqual([])
    // a cursor need not be a stored id: it is a place in the order
    expect(await ids({ limit: 5, before: "0" })).toEqual([])
    expect(await ids({ limit: 5, before: "g" })).toEqual(all)
  })

  it("filters by status and by key before counting the limit, and keeps the order and the cursor", async () => {
    const owners = ["k1", "k2", null, "k1", "k1", "k2"] as const
    const executions = made(6, (i) => ({
      keyId: owners[i]!,
      status: i % 2 === 0 ? "ok" : "error",
      resultText: i % 2 === 0 ? `${i}` : null,
      errorCode: i % 2 === 0 ? null : "runtime_error",
    }))
    await store.recordBatch(entries(executions))
    const id = (i: number) => executions[i]!.id

    expect(await ids({ limit: 10, keyId: "k1" })).toEqual([id(4), id(3), id(0)])
    expect(await ids({ limit: 2, keyId: "k1" })).toEqual([id(4), id(3)])
    expect(await ids({ limit: 2, keyId: "k1", before: id(3) })).toEqual([id(0)])
    expect(await ids({ limit: 10, keyId: "k2" })).toEqual([id(5), id(1)])
    expect(await ids({ limit: 10, status: "error" })).toEqual([id(5), id(3), id(1)])
    expect(await ids({ limit: 2, status: "ok" })).toEqual([id(4), id(2)])
    expect(await ids({ limit: 10, status: "ok", keyId: "k1" })).toEqual([id(4), id(0)])
    expect(await ids({ limit: 10, status: "error", keyId: "k2", before: id(5) })).toEqual([id(1)])
    expect(await ids({ limit: 10 })).toEqual(newestFirst(executions))
  })

  it("filters by error code and by the source a call went to, with the other filters, and pages through them", async () => {
    // 0 ok (calls a), 1 error timeout (calls a and b), 2 error runtime_error (calls b), 3 ok (no call),
    // 4 error timeout (calls a twice, key k1), 5 ok (calls a, key k1)
    const codes = [null, "timeout", "runtime_error", null, "timeout", null] as const
    const executions = made(6, (i) => ({
      status: codes[i] === null ? "ok" : "error",
      errorCode: codes[i]!,
      resultText: codes[i] === null ? "1" : null,
      keyId: i >= 4 ? "k1" : null,
    }))
    const paths = [["a.x"], ["a.x", "b.y"], ["b.y"], [], ["a.x", "a.z"], ["a.x.deep"]]
    await store.recordBatch(
      executions.map((execution, i) => ({
        execution,
        calls: paths[i]!.map((toolPath, n) => ({ ...call(execution.id, n), toolPath })),
      })),
    )
    const id = (i: number) => executions[i]!.id

    expect(await ids({ limit: 10, errorCode: "timeout" })).toEqual([id(4), id(1)])
    expect(await ids({ limit: 1, errorCode: "timeout" })).toEqual([id(4)])
    expect(await ids({ limit: 10, errorCode: "timeout", before: id(4) })).toEqual([id(1)])
    expect(await ids({ limit: 10, errorCode: "timeout", keyId: "k1" })).toEqual([id(4)])
    expect(await ids({ limit: 10, errorCode: "timeout", status: "ok" })).toEqual([])
    expect(await ids({ limit: 10, errorCode: "nothing_like_it" })).toEqual([])

    // an execution that called a source twice is listed once; a tool name with a dot is still its namespace's
    expect(await ids({ limit: 10, namespace: "a" })).toEqual([id(5), id(4), id(1), id(0)])
    expect(await ids({ limit: 10, namespace: "b" })).toEqual([id(2), id(1)])
    expect(await ids({ limit: 10, namespace: "a.x" })).toEqual([])
    expect(await ids({ limit: 2, namespace: "a" })).toEqual([id(5), id(4)])
    expect(await ids({ limit: 2, namespace: "a", before: id(4) })).toEqual([id(1), id(0)])
    expect(await ids({ limit: 10, namespace: "a", status: "error" })).toEqual([id(4), id(1)])
    expect(await ids({ limit: 10, namespace: "a", errorCode: "timeout", keyId: "k1" })).toEqual([id(4)])
    expect(await ids({ limit: 10, namespace: "b", keyId: "k1" })).toEqual([])
    expect(await ids({ limit: 1, namespace: "b", status: "error", before: id(2) })).toEqual([id(1)])
    const [summary] = await listed({ limit: 1, namespace: "b" })
    expect(summary).toMatchObject({ id: id(2), status: "error", errorCode: "runtime_error", toolCallCount: 0 })
  })

  it("names the next page: after a full page its last id, after a page cut short where it stopped looking", async () => {
    const executions = made(3)
    await store.recordBatch(entries(executions))
    const all = newestFirst(executions)
    expect(await store.listExecutions({ limit: 2 })).toMatchObject({ nextBefore: all[1] })
    expect(await store.listExecutions({ limit: 3 })).toMatchObject({ nextBefore: all[2] })
    expect(await store.listExecutions({ limit: 4 })).not.toHaveProperty("nextBefore")
    expect(await store.listExecutions({ limit: 2, namespace: "none" })).toEqual({ executions: [] })
  })

  it("under several filters looks at most SCAN_WINDOW executions a page, and names where it stopped", async () => {
    // a source's executions, all but the oldest passed over by the status asked for
    const executions = made(SCAN_WINDOW + 200, (i) =>
      i === 0 ? {} : { status: "error", errorCode: "timeout", resultText: null },
    )
    await store.recordBatch(
      executions.map((execution) => ({ execution, calls: [{ ...call(execution.id, 0), toolPath: "s.t" }] })),
    )
    const all = newestFirst(executions)
    const first = await store.listExecutions({ limit: 5, namespace: "s", status: "ok" })
    expect(first).toEqual({ executions: [], nextBefore: all[SCAN_WINDOW - 1] })
    const next = await store.listExecutions({ limit: 5, namespace: "s", status: "ok", before: first.nextBefore })
    expect(next.executions.map((summary) => summary.id)).toEqual([executions[0]!.id])
    expect(next).not.toHaveProperty("nextBefore")
    // a page that fills within the window names its last id, as an unfiltered one does
    const timeouts = await store.listExecutions({ limit: 300, namespace: "s", errorCode: "timeout" })
    expect(timeouts.executions.map((summary) => summary.id)).toEqual(all.slice(0, 300))
    expect(timeouts.nextBefore).toBe(all[299])
  })

  it("counts the whole result in UTF-16 units, where it is stored in parts too; an empty one is 0", async () => {
    // 1.5 MB of UTF-8: in parts where the dialect cuts at 64 KiB (and on D1, past its 1 MB a row)
    const long = `${"😀é".repeat(250_000)}\n${"a".repeat(100)}`
    const [none, empty, astral, parted] = made(4, (i) => ({
      resultText: [null, "", "😀 ok", long][i]!,
      status: i === 0 ? "error" : "ok",
    }))
    await store.recordBatch(entries([none!, empty!, astral!, parted!]))
    const chars = Object.fromEntries((await listed({ limit: 10 })).map((summary) => [summary.id, summary.resultChars]))
    expect(chars).toEqual({ [none!.id]: null, [empty!.id]: 0, [astral!.id]: 5, [parted!.id]: long.length })
    expect(long.length).toBe(750_101)
    // and the listing's count is the length of what reading the record gives back
    expect((await store.getExecution(parted!.id))?.resultText?.length).toBe(chars[parted!.id])
  })

  it("measures a row from before result_chars in SQL, parts and all: in code points, so 😀 counts 1", async () => {
    const long = `${"é".repeat(200_000)}\n${"a".repeat(100)}`
    const [none, empty, bmp, parted, astral] = made(5, (i) => ({
      resultText: [null, "", "é€x\n", long, "😀"][i]!,
      status: i === 0 ? "error" : "ok",
    }))
    await store.recordBatch(entries([none!, empty!, bmp!, parted!, astral!]))
    await subject().exec("update executions set result_chars = null")
    const chars = Object.fromEntries((await listed({ limit: 10 })).map((summary) => [summary.id, summary.resultChars]))
    expect(chars).toEqual({
      [none!.id]: null,
      [empty!.id]: 0,
      [bmp!.id]: 4,
      [parted!.id]: long.length,
      // the one place an old row's count differs: length() counts code points, a JS string UTF-16 units
      [astral!.id]: 1,
    })
  })

  it("previews the code's first line that is not blank, trimmed, at most 120 characters, whatever the code's length", async () => {
    const codes = [
      `return "${"x".repeat(300)}"`,
      "const a = 1\r\nreturn a",
      "\n  \t\r\n    return 2  \nreturn 3",
      " \n\n",
      `${"a".repeat(119)}😀 and more`,
      `// ${"long script ".repeat(100_000)}`,
    ]
    const executions = made(codes.length, (i) => ({ code: codes[i]! }))
    await store.recordBatch(entries(executions))
    const previews = (await listed({ limit: 10 })).map((summary) => summary.codePreview).reverse()
    expect(previews).toEqual([
      `return "${"x".repeat(112)}`,
      "const a = 1",
      "return 2",
      "",
      // a character outside the BMP is two UTF-16 units: it is not cut in half
      "a".repeat(119),
      `// ${"long script ".repeat(10)}`.slice(0, 120),
    ])
  })
}
