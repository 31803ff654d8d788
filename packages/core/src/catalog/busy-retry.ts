/**
 * Waiting for another connection's lock without blocking the event loop. A SQLite driver that runs statements
 * synchronously (better-sqlite3) would wait inside SQLite's busy handler, holding the whole process; instead the
 * file is opened with `busy_timeout = 0`, a statement that finds it locked fails at once with SQLITE_BUSY, and
 * the call is made again after a pause (1, 2, 4 … 50 ms) until it succeeds or `waitMs` has passed in all.
 *
 * Making the whole operation again is safe because SQLITE_BUSY means the statement did nothing: every store
 * operation is one statement, or reads and one batch (BEGIN IMMEDIATE is what waits, before any write). A shape
 * merge of several rounds makes each round an operation of its own (./shape-merge.ts).
 */
import { DatabaseFault, driverCode } from "../database-fault.js"

/** the longest a store call waits for a lock, in all: as long as a `busy_timeout` would, without holding the process */
export const DEFAULT_BUSY_WAIT_MS = 5_000

const MAX_PAUSE_MS = 50

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(driverCode(error) ?? "")

/** a wait of `ms` that leaves the event loop free */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const retryWhileBusy = async <T>(call: () => Promise<T>, waitMs: number): Promise<T> => {
  const started = Date.now()
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (cause) {
      if (!isBusy(cause)) throw cause
      const waited = Date.now() - started
      if (waited >= waitMs) {
        throw new DatabaseFault({
          message: `the database is locked by another connection (${driverCode(cause)}); gave up after waiting ${waited} ms`,
          cause,
        })
      }
      await pause(Math.min(2 ** attempt, MAX_PAUSE_MS, Math.max(1, waitMs - waited)))
    }
  }
}
