/**
 * The SQLite dialect under faults of the file: another connection's write lock is waited for without blocking
 * the event loop, and a write that fails reports its own error, never the ROLLBACK's that followed it.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { afterEach, expect, it } from "vitest"
import { createSqliteCatalogStore } from "../src/catalog/dialect-sqlite.js"
import type { ExecutionEntry } from "../src/index.js"
import { run } from "./catalog-store.shared.js"
import { openSqliteStore } from "./sqlite-store.js"

const entry = (id: string): ExecutionEntry => ({ execution: run(id), calls: [] })

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

const opened = () => {
  const store = openSqliteStore()
  cleanups.push(store.close)
  const path = join(store.dir, "catalog.db")
  const sqlite = new Database(path)
  sqlite.pragma("busy_timeout = 0")
  cleanups.push(() => sqlite.close())
  return {
    path,
    sqlite,
    store: (options: Parameters<typeof createSqliteCatalogStore>[1]) =>
      createSqliteCatalogStore(drizzle(sqlite), options),
  }
}

/** the longest the event loop went without running a 5 ms interval, while `work` ran */
const longestStall = async (work: Promise<unknown>) => {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 5)
  try {
    await work.catch(() => {})
  } finally {
    clearInterval(timer)
  }
  return longest
}

it("waits for another connection's write lock without blocking the event loop, and writes once it is released", async () => {
  const { path, store } = opened()
  const catalog = store({ busyWaitMs: 5_000 })
  const other = new Database(path)
  other.exec("begin immediate")
  setTimeout(() => (other.exec("rollback"), other.close()), 500)
  const write = catalog.recordBatch([entry("a")])
  expect(await longestStall(write)).toBeLessThan(100)
  await write
  expect(await catalog.getExecution("a")).toMatchObject({ id: "a" })
})

it("gives up after busyWaitMs with an error that says the file is locked", async () => {
  const { path, store } = opened()
  const catalog = store({ busyWaitMs: 200 })
  const other = new Database(path)
  other.exec("begin immediate")
  cleanups.push(() => (other.exec("rollback"), other.close()))
  const started = performance.now()
  await expect(catalog.recordBatch([entry("b")])).rejects.toMatchObject({
    _tag: "DatabaseFault",
    message: expect.stringMatching(/locked by another connection \(SQLITE_BUSY\)/),
  })
  expect(performance.now() - started).toBeGreaterThanOrEqual(200)
  await expect(catalog.checkReadiness()).rejects.toMatchObject({ _tag: "DatabaseFault" })
})

it("a write to a file that cannot be written fails with SQLite's own error, not with the failed ROLLBACK's", async () => {
  const { path, store } = opened()
  const catalog = store({})
  await catalog.checkReadiness()
  // root ignores file modes; the immutable attribute stops even root, through descriptors already open (Linux 5.3+)
  const files = [path, `${path}-wal`]
  execFileSync("chattr", ["+i", ...files])
  cleanups.push(() => execFileSync("chattr", ["-i", ...files]))
  await expect(catalog.recordBatch([entry("c")])).rejects.toMatchObject({ code: "SQLITE_IOERR_WRITE" })
  await expect(catalog.checkReadiness()).rejects.toMatchObject({ code: "SQLITE_IOERR_WRITE" })
  execFileSync("chattr", ["-i", ...files])
  await catalog.checkReadiness()
  await catalog.recordBatch([entry("d")])
  expect(await catalog.getExecution("d")).toMatchObject({ id: "d" })
})

it("every call fails while the host says the file is gone", async () => {
  const { store } = opened()
  let fault: string | undefined
  const catalog = store({ fileFault: () => fault })
  await catalog.recordBatch([entry("e")])
  fault = "the database file was deleted"
  await expect(catalog.recordBatch([entry("f")])).rejects.toMatchObject({
    _tag: "DatabaseFault",
    message: "the database file was deleted",
  })
  await expect(catalog.checkReadiness()).rejects.toMatchObject({ _tag: "DatabaseFault" })
})
