/**
 * Execution records written: each execution with its tool calls, in one batch (read back by ./execution-reads.ts and
 * ./execution-listing.ts). A dialect with a part size (`resultPartBytes`: 64 KiB on SQLite and Postgres, 1 MB on D1,
 * whose rows hold 2 MB) keeps a result in its row only when the row's text surely fits it: the code, logs and error
 * share the row. Otherwise the result is stored in parts of at most that many bytes (`execution_result_parts`,
 * ./result-parts.ts) and the row holds "" for it: the record reads back as the parts joined, byte for byte, and the
 * text alone can be read a part at a time (`getResult`, `readResultPage`). Each row also holds its result's length
 * (`result_chars`), so a listing reads neither the result nor its parts.
 */
import { getTableColumns, inArray, sql } from "drizzle-orm"
import type { ExecutionEntry, ExecutionRecord, ToolCallRecord } from "../seams.js"
import { timeOrderedId } from "../ids.js"
import { chunks, rowsPerInsert } from "./chunks.js"
import { splitUtf8 } from "./result-parts.js"
import { splitToolPath } from "./tool-path.js"
import type { CatalogDb, ExecutionRow, StoreDialect, ToolCallInsert, WriteStatement } from "./dialect.js"

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

const toolCallRow = (call: ToolCallRecord): ToolCallInsert => ({
  id: timeOrderedId(),
  executionId: call.executionId,
  toolPath: call.toolPath,
  encoding: call.encoding,
  startedAt: call.startedAt,
  durationMs: call.durationMs,
  ok: call.ok,
  errorCode: call.errorCode,
  dataBytes: call.dataBytes,
  outputSchemaError: call.outputSchemaError ?? null,
  namespace: splitToolPath(call.toolPath)?.namespace ?? null,
})

export const executionRows = ({
  tables,
  maxParameters,
  resultPartBytes = Number.POSITIVE_INFINITY,
  writeBatch,
  insertExecution,
  insertToolCall,
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
   * The statements that write `entries`, each execution with its result parts and its calls, for a batch to run
   * (alone, or with other statements). With `overwrite`, an execution already stored is written again whole (a
   * resumed one: its final record, or paused again) and its old result parts go; its stored calls stay, and the
   * entry's are added to them.
   */
  const statements = (entries: readonly ExecutionEntry[], { overwrite = false } = {}) => {
    const rows: ExecutionRow[] = []
    const partRows: (typeof parts.$inferInsert)[] = []
    const calls: ToolCallInsert[] = []
    for (const { execution, calls: own } of entries) {
      if (inline(execution)) rows.push(row(execution))
      else {
        rows.push(row(execution, ""))
        splitUtf8(execution.resultText!, resultPartBytes).forEach((text, seq) =>
          partRows.push({ executionId: execution.id, seq, text }),
        )
      }
      for (const call of own) calls.push(toolCallRow(call))
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
      if (insertToolCall) statements.push(...calls.map(insertToolCall))
      else for (const chunk of chunks(calls, perInsert.calls)) statements.push(tx.insert(toolCalls).values(chunk))
      return statements
    }
  }

  return {
    statements,

    async recordBatch(entries: readonly ExecutionEntry[]): Promise<void> {
      if (entries.length === 0) return
      await writeBatch(statements(entries))
    },
  }
}
