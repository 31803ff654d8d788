/**
 * Deleting execution records past the retention (./retention.ts), a small batch at a time. Every batch is one store
 * operation (reads, then one `writeBatch`): the oldest due executions, at most PRUNE_BATCH.executions of them and fewer
 * when their tool calls or their text pass a bound, and their tool_calls and execution_result_parts rows with them.
 * Between batches the prune yields, so on SQLite, where every request waits for the store's one connection in
 * turn, a request waits behind at most one batch, never behind the whole prune.
 *
 * The children are deleted by statement rather than left to ON DELETE CASCADE: SQLite cascades only with
 * `foreign_keys = ON`, which is the connection's setting, not the file's.
 *
 * A paused execution is never due, whatever its age, its place or its hold: its approval waits for a decision, or
 * its resume for a server to replay it, and both need the record. Once a resume records its end, it is an
 * execution like any other, and its approvals go with it.
 */
import { and, asc, desc, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm"
import type { SQL } from "drizzle-orm"
import { pause } from "./busy-retry.js"
import { chunks } from "./chunks.js"
import type { StoreDialect, WriteStatement } from "./dialect.js"
import type { RetentionPolicy } from "./retention.js"

/**
 * A batch's bounds. better-sqlite3 is synchronous, so a batch holds the whole event loop for as long as it takes,
 * not only the store: the batch is small enough to take a few milliseconds on SQLite (the host's file: WAL,
 * secure_delete; `pnpm tsx bench/prune.ts` times it). The text bound keeps a batch of large results (up to 8 MiB
 * each by default) from writing hundreds of MB at once: secure_delete overwrites every freed page.
 */
export const PRUNE_BATCH = { executions: 50, toolCalls: 500, textBytes: 4 * 1024 * 1024 }

/**
 * The pause between batches. With none (the next macrotask), the prune's timer comes round before the next request
 * on every turn of the loop and a steady stream of store calls gets one call in per batch; a pause about as long
 * as a batch leaves the store to requests about half the time, and store calls during a prune keep close to their
 * idle speed (bench/README.md, the prune).
 */
export const PRUNE_PAUSE_MS = 10

export interface PruneOptions {
  /** the time the ages and holds are measured at (epoch ms) */
  now: number
  /** stops the prune between batches; a batch once started commits */
  signal?: AbortSignal
  /** the most batches this call runs; the rest waits for the next call (a Worker's cron invocation has a budget) */
  maxBatches?: number
  /** the pause between batches, in ms (default PRUNE_PAUSE_MS) */
  pauseMs?: number
  /** smaller batches, for tests */
  batch?: Partial<typeof PRUNE_BATCH>
}

export interface PruneReport {
  /** executions deleted (their tool calls and result parts went with them) */
  deleted: number
  batches: number
  /** false when it stopped with executions still due: signalled, or at `maxBatches` */
  done: boolean
}

/**
 * The newest row to delete, in (started_at, id) order: every row at or before it is past the retention. Without
 * `id`, every row of that millisecond is.
 */
interface Edge {
  startedAt: number
  id?: string
}

export const executionPruner = (
  { db, tables, maxParameters, writeBatch }: StoreDialect,
  around: <T>(operation: () => Promise<T>) => Promise<T>,
) => {
  const { executions, executionResultParts: parts, toolCalls, approvals } = tables
  // the stored length, without reading the text: SQLite (3.43+) answers octet_length from the record header,
  // Postgres from the TOAST header. Logs are left out (1 MiB each at most, and jsonb on Postgres).
  const partBytes = sql`(select coalesce(sum(octet_length(${parts.text})), 0) from ${parts} where ${parts.executionId} = ${executions.id})`
  const textBytes = sql<
    number | string
  >`coalesce(octet_length(${executions.resultText}), 0) + octet_length(${executions.code}) + ${partBytes}`

  /** the later of the two bounds' edges: each deletes everything at or before its own */
  const edgeOf = async (policy: RetentionPolicy, now: number): Promise<Edge | null> => {
    const edges: Edge[] = []
    if (policy.maxAgeMs !== undefined) edges.push({ startedAt: now - policy.maxAgeMs - 1 })
    if (policy.maxExecutions !== undefined) {
      // found once per prune: rows recorded meanwhile are newer, and only push older ones further out
      const [row] = await around(() =>
        db
          .select({ startedAt: executions.startedAt, id: executions.id })
          .from(executions)
          .orderBy(desc(executions.startedAt), desc(executions.id))
          .limit(1)
          .offset(policy.maxExecutions!),
      )
      if (row) edges.push({ startedAt: Number(row.startedAt), id: row.id })
    }
    // an edge without id covers its whole millisecond, so it wins a tie
    return edges.reduce<Edge | null>(
      (later, edge) =>
        later === null ||
        edge.startedAt > later.startedAt ||
        (edge.startedAt === later.startedAt && edge.id === undefined)
          ? edge
          : later,
      null,
    )
  }

  const atOrBefore = ({ startedAt, id }: Edge): SQL =>
    id === undefined
      ? lte(executions.startedAt, startedAt)
      : // the range on started_at is what the index (started_at, id) is searched by
        and(lte(executions.startedAt, startedAt), or(lt(executions.startedAt, startedAt), lte(executions.id, id)))!

  /** One batch: deletes the oldest due executions within the bounds; says how many it found and deleted. */
  const batch = (due: SQL, bounds: typeof PRUNE_BATCH) =>
    around(async () => {
      let found = 0
      let taken = 0
      const changed = await writeBatch(
        async (tx) => {
          const rows = await tx
            .select({ id: executions.id, calls: executions.toolCallCount, bytes: textBytes })
            .from(executions)
            .where(due)
            .orderBy(asc(executions.startedAt), asc(executions.id))
            .limit(bounds.executions)
          found = rows.length
          const ids: string[] = []
          let calls = 0
          let bytes = 0
          for (const row of rows) {
            calls += Number(row.calls)
            bytes += Number(row.bytes)
            // the first always goes, however large: a batch of one is as small as a batch can be
            if (ids.length > 0 && (calls > bounds.toolCalls || bytes > bounds.textBytes)) break
            ids.push(row.id)
          }
          taken = ids.length
          const statements: WriteStatement[] = []
          for (const chunk of chunks(ids, maxParameters)) {
            statements.push(tx.delete(toolCalls).where(inArray(toolCalls.executionId, chunk)))
            statements.push(tx.delete(parts).where(inArray(parts.executionId, chunk)))
            statements.push(tx.delete(approvals).where(inArray(approvals.executionId, chunk)))
          }
          // the executions last, after every row that refers to them
          for (const chunk of chunks(ids, maxParameters))
            statements.push(tx.delete(executions).where(inArray(executions.id, chunk)))
          return statements
        },
        // two servers pruning one Postgres catalog take turns rather than deadlock on the same rows
        { lockKeys: ["retention"] },
      )
      const executionStatements = Math.ceil(taken / maxParameters)
      const deleted = changed.slice(changed.length - executionStatements).reduce((sum, n) => sum + n, 0)
      return { found, taken, deleted }
    })

  return async (policy: RetentionPolicy, options: PruneOptions) => {
    const { now, signal, maxBatches = Number.POSITIVE_INFINITY, pauseMs = PRUNE_PAUSE_MS } = options
    const bounds = { ...PRUNE_BATCH, ...options.batch }
    const report: PruneReport = { deleted: 0, batches: 0, done: true }
    const edge = await edgeOf(policy, now)
    if (edge === null) return report
    const due = and(
      atOrBefore(edge),
      or(isNull(executions.keepUntil), lte(executions.keepUntil, now)),
      ne(executions.status, "paused"),
    )!
    for (;;) {
      if (signal?.aborted) return { ...report, done: false }
      const { found, taken, deleted } = await batch(due, bounds)
      if (found === 0) return report
      report.batches++
      report.deleted += deleted
      // fewer due than a batch holds, and every one taken: nothing is left
      if (found < bounds.executions && taken === found) return report
      if (report.batches >= maxBatches) return { ...report, done: false }
      await pause(pauseMs)
    }
  }
}
