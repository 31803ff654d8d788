/** A page of executions, newest first, without their texts (`listExecutions`). */
import { and, desc, eq, lt, sql } from "drizzle-orm"
import { PREVIEW_SCAN, codePreview } from "./code-preview.js"
import type { StoreDialect } from "./dialect.js"
import type { ExecutionListQuery, ExecutionSummary } from "./rows.js"

export const executionListing = ({ db, tables }: StoreDialect) => {
  const { executions, executionResultParts: parts } = tables
  /**
   * The result's length: as written with it, or for a row from before `result_chars` measured in SQL, where
   * length() counts code points, so a character outside the BMP counts 1 instead of 2 (and SQLite stops at a NUL).
   */
  const resultChars = sql<number | null>`coalesce(${executions.resultChars}, case
    when ${executions.resultText} is null then null
    when ${executions.resultText} = '' then coalesce((select sum(length(${parts.text})) from ${parts} where ${parts.executionId} = ${executions.id}), 0)
    else length(${executions.resultText}) end)`.mapWith(Number)

  return {
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
