/**
 * Execution records: each execution with its tool calls, written in one batch, and read back whole. A dialect with a
 * part size (`resultPartBytes`: 64 KiB on SQLite and Postgres, 1 MB on D1, whose rows hold 2 MB) keeps a result in
 * its row only when the row's text surely fits it: the code, logs and error share the row. Otherwise the result is
 * stored in parts of at most that many bytes (`execution_result_parts`, ./result-parts.ts) and the row holds "" for
 * it: the record reads back as the parts joined, byte for byte, and the text alone can be read a part at a time
 * (`getResult`, `readResultPage`). Each row also holds its result's length (`result_chars`), so a listing reads
 * neither the result nor its parts.
 */
import { and, asc, desc, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm"
import type { ExecutionEntry, ExecutionRecord, LogEntry } from "../seams.js"
import { timeOrderedId } from "../ids.js"
import { chunks, first, rowsPerInsert } from "./chunks.js"
import { PREVIEW_SCAN, codePreview } from "./code-preview.js"
import { splitUtf8 } from "./result-parts.js"
import type { ExecutionListQuery, ExecutionSummary, StoredExecution, StoredResult } from "./rows.js"
import type { CatalogDb, ExecutionRow, StoreDialect, WriteStatement } from "./dialect.js"

/**
 * characters of text per insert statement: a stored result may be megabytes, and Postgres refuses a message over
 * 1 GiB, so a batch of large results is split (a single larger row still goes alone)
 */
const STATEMENT_CHARS = 16 * 1024 * 1024

const textSize = ({ code, resultText, errorMessage, logs }: ExecutionRecord) => {
  let size = code.length + (resultText?.length ?? 0) + (errorMessage?.length ?? 0)
  for (const entry of logs) size += entry.message.length
  return size
}

export const executionRows = ({
  db,
  tables,
  maxParameters,
  resultPartBytes = Number.POSITIVE_INFINITY,
  writeBatch,
  insertExecution,
}: StoreDialect) => {
  const { executions, executionResultParts: parts, toolCalls } = tables
  const perInsert = {
    executions: rowsPerInsert(executions, maxParameters),
    parts: rowsPerInsert(parts, maxParameters),
    calls: rowsPerInsert(toolCalls, maxParameters),
  }
  const cutting = Number.isFinite(resultPartBytes)
  // every UTF-16 unit is at most 3 bytes of UTF-8: a bound, so the exact size is never counted on this path
  const inline = (execution: ExecutionRecord) =>
    !cutting || !execution.resultText || textSize(execution) * 3 <= resultPartBytes
  const row = (execution: ExecutionRecord, resultText = execution.resultText): ExecutionRow => ({
    ...execution,
    resultText,
    resultChars: execution.resultText?.length ?? null,
  })
  /** what an overwrite rewrites: every column but the id */
  const rewritten = Object.fromEntries(
    Object.entries(getTableColumns(executions))
      .filter(([key]) => key !== "id")
      .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
  )
  /**
   * The result's length: as written with it, or for a row from before `result_chars` measured in SQL, where
   * length() counts code points, so a character outside the BMP counts 1 instead of 2 (and SQLite stops at a NUL).
   */
  const resultChars = sql<number | null>`coalesce(${executions.resultChars}, case
    when ${executions.resultText} is null then null
    when ${executions.resultText} = '' then coalesce((select sum(length(${parts.text})) from ${parts} where ${parts.executionId} = ${executions.id}), 0)
    else length(${executions.resultText}) end)`.mapWith(Number)

  /**
   * The statements that write `entries`, each execution with its result parts and its calls, for a batch to run
   * (alone, or with other statements). With `overwrite`, an execution already stored is written again whole (a
   * resumed one: its final record, or paused again) and its old result parts go; its stored calls stay, and the
   * entry's are added to them.
   */
  const statements = (entries: readonly ExecutionEntry[], { overwrite = false } = {}) => {
    const rows: ExecutionRow[] = []
    const partRows: (typeof parts.$inferInsert)[] = []
    const calls: (typeof toolCalls.$inferInsert)[] = []
    for (const { execution, calls: own } of entries) {
      if (inline(execution)) rows.push(row(execution))
      else {
        rows.push(row(execution, ""))
        splitUtf8(execution.resultText!, resultPartBytes).forEach((text, seq) =>
          partRows.push({ executionId: execution.id, seq, text }),
        )
      }
      for (const call of own)
        calls.push({ id: timeOrderedId(), ...call, outputSchemaError: call.outputSchemaError ?? null })
    }
    return (tx: CatalogDb): WriteStatement[] => {
      const statements: WriteStatement[] = []
      if (overwrite) {
        const ids = rows.map((r) => r.id)
        for (const chunk of chunks(ids, maxParameters))
          statements.push(tx.delete(parts).where(inArray(parts.executionId, chunk)))
        for (const chunk of chunks(rows, perInsert.executions, textSize, STATEMENT_CHARS))
          statements.push(
            tx.insert(executions).values(chunk).onConflictDoUpdate({ target: executions.id, set: rewritten }),
          )
      } else if (insertExecution) statements.push(...rows.map(insertExecution))
      else
        for (const chunk of chunks(rows, perInsert.executions, textSize, STATEMENT_CHARS))
          statements.push(tx.insert(executions).values(chunk))
      for (const chunk of chunks(partRows, perInsert.parts, (part) => part.text.length, STATEMENT_CHARS))
        statements.push(tx.insert(parts).values(chunk))
      for (const chunk of chunks(calls, perInsert.calls)) statements.push(tx.insert(toolCalls).values(chunk))
      return statements
    }
  }

  return {
    statements,

    async recordBatch(entries: readonly ExecutionEntry[]): Promise<void> {
      if (entries.length === 0) return
      await writeBatch(statements(entries))
    },

    async getExecution(id: string): Promise<StoredExecution | null> {
      const found = first(await db.select().from(executions).where(eq(executions.id, id)).limit(1))
      if (!found) return null
      // result_chars is the listing's: a record has the text itself
      const { resultChars: _, ...row } = found
      const [calls, resultParts] = await Promise.all([
        db.select().from(toolCalls).where(eq(toolCalls.executionId, id)).orderBy(asc(toolCalls.startedAt)),
        // a text stored in parts leaves "" in its row
        row.resultText === ""
          ? db.select({ text: parts.text }).from(parts).where(eq(parts.executionId, id)).orderBy(asc(parts.seq))
          : [],
      ])
      return {
        ...row,
        status: row.status as ExecutionRecord["status"],
        resultText: resultParts.length === 0 ? row.resultText : resultParts.map((part) => part.text).join(""),
        logs: (row.logs as LogEntry[] | null) ?? [],
        calls: calls.map(({ id: _id, ...call }) => call),
      }
    },

    async getResult(id: string): Promise<StoredResult | null> {
      // octet_length reads a text's length from the record without reading the text (SQLite 3.43+, Postgres)
      const found = first(
        await db
          .select({ keyId: executions.keyId, bytes: sql<number | null>`octet_length(${executions.resultText})` })
          .from(executions)
          .where(eq(executions.id, id))
          .limit(1),
      )
      if (!found) return null
      const { keyId } = found
      const bytes = found.bytes === null ? null : Number(found.bytes)
      if (bytes === null) return { keyId, bytes: null, pages: 0 }
      if (bytes > 0) return { keyId, bytes, pages: 1 }
      // "" in the row: the text is in parts, or empty
      const [stored] = await db
        .select({
          pages: sql<number>`count(*)`.mapWith(Number),
          bytes: sql<number>`coalesce(sum(octet_length(${parts.text})), 0)`.mapWith(Number),
        })
        .from(parts)
        .where(eq(parts.executionId, id))
      return { keyId, bytes: stored?.bytes ?? 0, pages: Math.max(1, stored?.pages ?? 0) }
    },

    async readResultPage(id: string, page: number): Promise<string | null> {
      const part = first(
        await db
          .select({ text: parts.text })
          .from(parts)
          .where(and(eq(parts.executionId, id), eq(parts.seq, page)))
          .limit(1),
      )
      if (part) return part.text
      if (page !== 0) return null
      const row = first(
        await db.select({ text: executions.resultText }).from(executions).where(eq(executions.id, id)).limit(1),
      )
      return row?.text ?? null
    },

    // newest first by the primary key, or (key_id, id) under a key, or (status, id) under a status alone (0008),
    // LIMIT rows: under a key and a status, the key's rows are walked until enough have the status
    async listExecutions({ limit, before, status, keyId }: ExecutionListQuery): Promise<ExecutionSummary[]> {
      if (!Number.isInteger(limit) || limit < 1)
        throw new RangeError(`listExecutions needs a whole number limit of at least 1 (got ${limit})`)
      const rows = await db
        .select({
          id: executions.id,
          status: executions.status,
          startedAt: executions.startedAt,
          durationMs: executions.durationMs,
          errorCode: executions.errorCode,
          toolCallCount: executions.toolCallCount,
          keyId: executions.keyId,
          resultChars,
          head: sql<string>`substr(${executions.code}, 1, ${sql.raw(String(PREVIEW_SCAN))})`,
        })
        .from(executions)
        .where(
          and(
            before === undefined ? undefined : lt(executions.id, before),
            status === undefined
              ? undefined
              : keyId === undefined
                ? eq(executions.status, status)
                : // under a key the key's index leads: given status = ? as well, SQLite chose (status, id) and a key
                  // owning none walked every other key's rows of a common status. An expression uses no index.
                  sql`${executions.status} || '' = ${status}`,
            keyId === undefined ? undefined : eq(executions.keyId, keyId),
          ),
        )
        .orderBy(desc(executions.id))
        .limit(limit)
      return rows.map(({ head, ...summary }) => ({
        ...summary,
        status: summary.status as ExecutionSummary["status"],
        codePreview: codePreview(head),
      }))
    },
  }
}
