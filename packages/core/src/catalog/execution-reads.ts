/**
 * An execution's record read back whole, and its result text read without the record: its size and pages
 * (`getResult`), then a page at a time (`readResultPage`). A text stored in parts leaves "" in its row
 * (./execution-rows.ts).
 */
import { and, asc, eq, sql } from "drizzle-orm"
import type { ExecutionRecord, LogEntry } from "../seams.js"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import { preparedRead } from "./prepared-read.js"
import type { StoredExecution, StoredResult } from "./rows.js"

export const executionReads = (dialect: StoreDialect) => {
  const { db, tables } = dialect
  const { executions, executionResultParts: parts, toolCalls } = tables
  // read_output and grep_output read these for every page they answer; each row by its key (no LIMIT:
  // ./prepared-read.ts)
  const executionWithId = preparedRead(dialect, (param) =>
    db
      .select()
      .from(executions)
      .where(eq(executions.id, param("id"))),
  )
  // octet_length reads a text's length from the record without reading the text (SQLite 3.43+, Postgres)
  const resultSizeOf = preparedRead(dialect, (param) =>
    db
      .select({ keyId: executions.keyId, bytes: sql<number | null>`octet_length(${executions.resultText})` })
      .from(executions)
      .where(eq(executions.id, param("id"))),
  )
  const resultPart = preparedRead(dialect, (param) =>
    db
      .select({ text: parts.text })
      .from(parts)
      .where(and(eq(parts.executionId, param("id")), eq(parts.seq, param("seq")))),
  )
  const resultTextOf = preparedRead(dialect, (param) =>
    db
      .select({ text: executions.resultText })
      .from(executions)
      .where(eq(executions.id, param("id"))),
  )

  return {
    async getExecution(id: string): Promise<StoredExecution | null> {
      const found = first(await executionWithId({ id }))
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
        // the namespace is the listing's index, the path says it already
        calls: calls.map(({ id: _id, namespace: _namespace, ...call }) => call),
      }
    },

    async getResult(id: string): Promise<StoredResult | null> {
      const found = first(await resultSizeOf({ id }))
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
      const part = first(await resultPart({ id, seq: page }))
      if (part) return part.text
      if (page !== 0) return null
      const row = first(await resultTextOf({ id }))
      return row?.text ?? null
    },
  }
}
