/**
 * A page of executions, newest first, without their texts (`listExecutions`), filtered by status, error code, key
 * and the source a call went to. Each filter is an index, newest first: `executions (error_code | key_id | status,
 * id)`, `tool_calls (namespace, execution_id)`. Under one filter the page is read from its index. Under several,
 * one leads (its index gives the candidates, newest first) and the others are checked on each candidate; as the
 * others may pass over any number of them, a page looks at most SCAN_WINDOW candidates and names where it stopped
 * as its `nextBefore`, so no page costs more than that whatever the filters and the catalog's size.
 */
import { and, desc, eq, lt, sql } from "drizzle-orm"
import type { AnyColumn, SQL } from "drizzle-orm"
import { PREVIEW_SCAN, codePreview } from "./code-preview.js"
import type { StoreDialect } from "./dialect.js"
import type { ExecutionListPage, ExecutionListQuery, ExecutionSummary } from "./rows.js"

/** the most candidates one page under several filters looks at */
export const SCAN_WINDOW = 1_000

type Filter = "errorCode" | "keyId" | "namespace" | "status"

/**
 * The filter whose index gives the candidates, the narrowest first as a catalog usually is: an error code (only
 * failed executions have one), a key, a source, a status (most are `ok`).
 */
const LEAD_ORDER: Filter[] = ["errorCode", "keyId", "namespace", "status"]

export const executionListing = ({
  db,
  tables,
  among = (column, select) => sql`${column} in (${select})`,
}: StoreDialect) => {
  const { executions, executionResultParts: parts, toolCalls } = tables
  /**
   * The result's length: as written with it, or for a row from before `result_chars` measured in SQL, where
   * length() counts code points, so a character outside the BMP counts 1 instead of 2 (and SQLite stops at a NUL).
   */
  const resultChars = sql<number | null>`coalesce(${executions.resultChars}, case
    when ${executions.resultText} is null then null
    when ${executions.resultText} = '' then coalesce((select sum(length(${parts.text})) from ${parts} where ${parts.executionId} = ${executions.id}), 0)
    else length(${executions.resultText}) end)`.mapWith(Number)

  const columns: Record<Exclude<Filter, "namespace">, AnyColumn> = {
    errorCode: executions.errorCode,
    keyId: executions.keyId,
    status: executions.status,
  }

  /**
   * A filter checked on a candidate: a column as an expression, which no index serves, so the planner keeps to the
   * candidates (given status = ? beside key_id = ?, SQLite chose (status, id), and a key owning none walked every
   * other key's rows of a common status); a source as a call to it, found by the calls' index.
   */
  const check = (filter: Filter, value: string): SQL =>
    filter === "namespace"
      ? sql`exists (select 1 from ${toolCalls} where ${toolCalls.executionId} = ${executions.id} and ${toolCalls.namespace} = ${value})`
      : sql`${columns[filter]} || '' = ${value}`

  /** the ids of the lead's executions older than `before`, newest first, at most `limit` */
  const candidates = (lead: Filter, value: string, before: string | undefined, limit: number) =>
    lead === "namespace"
      ? db
          .select({ id: toolCalls.executionId })
          .from(toolCalls)
          .where(
            and(eq(toolCalls.namespace, value), before === undefined ? undefined : lt(toolCalls.executionId, before)),
          )
          .groupBy(toolCalls.executionId)
          .orderBy(desc(toolCalls.executionId))
          .limit(limit)
      : db
          .select({ id: executions.id })
          .from(executions)
          .where(and(eq(columns[lead], value), before === undefined ? undefined : lt(executions.id, before)))
          .orderBy(desc(executions.id))
          .limit(limit)

  const summaries = async (where: SQL | undefined, limit: number): Promise<ExecutionSummary[]> => {
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
      .where(where)
      .orderBy(desc(executions.id))
      .limit(limit)
    return rows.map(({ head, ...summary }) => ({
      ...summary,
      status: summary.status as ExecutionSummary["status"],
      codePreview: codePreview(head),
    }))
  }

  const full = (executions: ExecutionSummary[], limit: number): ExecutionListPage =>
    executions.length === limit ? { executions, nextBefore: executions.at(-1)!.id } : { executions }

  return {
    async listExecutions(query: ExecutionListQuery): Promise<ExecutionListPage> {
      const { limit, before } = query
      if (!Number.isInteger(limit) || limit < 1)
        throw new RangeError(`listExecutions needs a whole number limit of at least 1 (got ${limit})`)
      const given = LEAD_ORDER.filter((filter) => query[filter] !== undefined)
      const [lead, ...others] = given
      // none, or one filter on executions: read from the primary key's index, or that column's
      if (lead === undefined || (lead !== "namespace" && others.length === 0)) {
        const where = lead === undefined ? undefined : eq(columns[lead], query[lead]!)
        return full(
          await summaries(and(before === undefined ? undefined : lt(executions.id, before), where), limit),
          limit,
        )
      }
      // a source alone: its executions are the candidates, all of which pass
      if (others.length === 0) {
        const ids = candidates(lead, query[lead]!, before, limit)
        return full(await summaries(among(executions.id, ids), limit), limit)
      }
      const window = candidates(lead, query[lead]!, before, SCAN_WINDOW)
      const found = await summaries(
        and(among(executions.id, window), ...others.map((filter) => check(filter, query[filter]!))),
        limit,
      )
      if (found.length === limit) return full(found, limit)
      // fewer than asked: where the window ended is where the next page starts, when the window was full
      const [edge] = await candidates(lead, query[lead]!, before, 1).offset(SCAN_WINDOW - 1)
      return edge ? { executions: found, nextBefore: edge.id } : { executions: found }
    },
  }
}
