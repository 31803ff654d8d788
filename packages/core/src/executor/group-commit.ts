/**
 * Group commit for execution records. A commit costs more than the rows in it (SQLite WAL here: 50–90 µs a
 * commit, 10–25 µs a record when 32 share one), so the records of executions that finish together are
 * written with one `recordBatch`, one atomic batch. Each caller's promise settles when its own batch has
 * committed, or rejects with that batch's failure; the next batch is written regardless.
 *
 * A batch closes at the end of the current event-loop turn (or, while other executions still run, up to
 * `holdMs` later, so they can join), or at `maxBatch` records. One batch is written
 * at a time: records that arrive while one is being written join the next, which starts when it ends. So a
 * slow database (Postgres, D1) grows the batches and a fast one keeps them small, with no timer to tune.
 * The batching sits above the store: the SQLite dialect's lock is taken once per batch, inside
 * `recordBatch`, and nothing here waits while holding it.
 */
import { afterThisTurn } from "../after-this-turn.js"
import type { ExecutionEntry, ExecutionRecord, TelemetrySink, ToolCallRecord } from "../seams.js"

/** records per transaction at most: bounds one write's statement count and the wait of a batch's last caller */
export const DEFAULT_MAX_BATCH = 256

export interface GroupCommitOptions {
  maxBatch?: number
  /**
   * Executions still running that have not asked to record yet. While there are any, a batch whose turn has
   * ended stays open up to `holdMs` for them: under load, executions finish one per turn (each outcome is a
   * message of its own), so without the hold every one of them would pay a whole commit. With none running,
   * nothing can join, and the batch is written at the end of its turn as before.
   */
  running?: () => number
  /** the longest a batch waits for running executions to join it (default 1 ms) */
  holdMs?: number
}

export interface GroupCommit {
  /** Resolves once this execution and its calls have committed, in a batch with whatever finished alongside. */
  record(execution: ExecutionRecord, calls: ToolCallRecord[]): Promise<void>
}

interface Waiting {
  entry: ExecutionEntry
  resolve: () => void
  reject: (cause: unknown) => void
}

export const createGroupCommit = (
  sink: TelemetrySink,
  { maxBatch = DEFAULT_MAX_BATCH, running = () => 0, holdMs = 1 }: GroupCommitOptions = {},
): GroupCommit => {
  if (!Number.isSafeInteger(maxBatch) || maxBatch < 1)
    throw new Error(`maxBatch must be a positive whole number (got ${maxBatch})`)
  /** batches closed at `maxBatch`, oldest first */
  const full: Waiting[][] = []
  /** the batch still taking records */
  let open: Waiting[] = []
  /** the open batch's turn has ended: it goes as soon as no write is running */
  let openClosed = false
  let turnScheduled = false
  let writing = false
  /** the open batch is waiting for running executions (a timer closes it at `holdMs`) */
  let holding: ReturnType<typeof setTimeout> | undefined

  const write = (batch: Waiting[]) => {
    let committed: Promise<void>
    try {
      committed = sink.recordBatch(batch.map((waiting) => waiting.entry))
    } catch (cause) {
      committed = Promise.reject(cause)
    }
    return committed.then(
      () => batch.forEach((waiting) => waiting.resolve()),
      (cause: unknown) => batch.forEach((waiting) => waiting.reject(cause)),
    )
  }

  const next = (): Waiting[] | undefined => {
    if (full.length > 0) return full.shift()
    if (!openClosed || open.length === 0) return undefined
    const batch = open
    open = []
    openClosed = false
    return batch
  }

  const pump = () => {
    if (writing) return
    const batch = next()
    if (!batch) return
    writing = true
    void write(batch).then(() => {
      writing = false
      pump()
    })
  }

  const stopHolding = () => {
    if (holding !== undefined) clearTimeout(holding)
    holding = undefined
  }

  const close = () => {
    stopHolding()
    openClosed = true
    pump()
  }

  const endOfTurn = () => {
    turnScheduled = false
    if (running() === 0) return close()
    holding ??= setTimeout(close, holdMs)
  }

  return {
    record(execution, calls) {
      return new Promise<void>((resolve, reject) => {
        open.push({ entry: { execution, calls }, resolve, reject })
        if (open.length >= maxBatch) {
          stopHolding()
          full.push(open)
          open = []
          openClosed = false
          pump()
        } else if (!turnScheduled) {
          turnScheduled = true
          afterThisTurn(endOfTurn)
        }
      })
    },
  }
}
