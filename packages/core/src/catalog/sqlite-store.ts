/**
 * CatalogStore on SQLite through drizzle's synchronous driver (better-sqlite3).
 * Writes that must be atomic run inside `db.transaction`, which for a sync driver takes a sync callback:
 * every statement in it ends in `.run()`/`.all()`, never an `await`.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm"
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import type { DiscoveredTool, ExecutionRecord, LogEntry, ToolCallRecord } from "../seams.js"
import type { CatalogStore, SourceRow, SourceStatus, ToolListQuery, ToolRow } from "./rows.js"
import { executions, sources, toolCalls, tools } from "./schema-sqlite.js"

export type SqliteCatalogDb = BaseSQLiteDatabase<"sync", unknown, Record<string, unknown>>

const toolColumns = {
  id: tools.id,
  sourceId: tools.sourceId,
  namespace: sources.namespace,
  name: tools.name,
  path: tools.path,
  description: tools.description,
  inputSchema: tools.inputSchema,
  outputSchema: tools.outputSchema,
  annotations: tools.annotations,
  resultEncoding: tools.resultEncoding,
  syncedAt: tools.syncedAt,
}

const toSourceRow = (row: typeof sources.$inferSelect): SourceRow => ({ ...row, status: row.status as SourceStatus })

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export const createSqliteCatalogStore = (db: SqliteCatalogDb): CatalogStore => ({
  async listSources() {
    return db.select().from(sources).orderBy(asc(sources.namespace)).all().map(toSourceRow)
  },

  async getSource(namespace) {
    const row = db.select().from(sources).where(eq(sources.namespace, namespace)).get()
    return row ? toSourceRow(row) : null
  },

  async insertSource(row) {
    db.insert(sources).values(row).run()
  },

  async deleteSource(id) {
    db.transaction((tx) => {
      tx.delete(tools).where(eq(tools.sourceId, id)).run()
      tx.delete(sources).where(eq(sources.id, id)).run()
    })
  },

  async applySync(sourceId, discovered, encoding, syncedAt) {
    db.transaction((tx) => {
      const source = tx.select({ namespace: sources.namespace }).from(sources).where(eq(sources.id, sourceId)).get()
      if (!source) return
      const existing = new Map(
        tx.select({ id: tools.id, name: tools.name }).from(tools).where(eq(tools.sourceId, sourceId)).all().map((t) => [t.name, t.id]),
      )
      const seen = new Set<string>()
      for (const tool of discovered) {
        if (seen.has(tool.name)) continue // a server that lists a name twice: the first listing wins
        seen.add(tool.name)
        const values = {
          description: tool.description,
          inputSchema: tool.inputSchema ?? null,
          outputSchema: tool.outputSchema ?? null,
          annotations: tool.annotations ?? null,
          resultEncoding: encoding,
          syncedAt,
        }
        const id = existing.get(tool.name)
        if (id) tx.update(tools).set(values).where(eq(tools.id, id)).run()
        else tx.insert(tools).values({ id: crypto.randomUUID(), sourceId, name: tool.name, path: `${source.namespace}.${tool.name}`, ...values }).run()
      }
      const vanished = [...existing].filter(([name]) => !seen.has(name)).map(([, id]) => id)
      if (vanished.length > 0) tx.delete(tools).where(inArray(tools.id, vanished)).run()
      tx.update(sources).set({ status: "ready", lastSyncedAt: syncedAt, syncError: null, updatedAt: syncedAt }).where(eq(sources.id, sourceId)).run()
    })
  },

  async recordSyncError(sourceId, message, at) {
    db.update(sources).set({ status: "error", syncError: message, updatedAt: at }).where(eq(sources.id, sourceId)).run()
  },

  async listTools(query: ToolListQuery) {
    const conditions = []
    if (query.namespace) conditions.push(eq(sources.namespace, query.namespace))
    if (query.query) {
      const pattern = `%${escapeLike(query.query)}%`
      conditions.push(
        or(
          sql`${tools.path} like ${pattern} escape '\\'`,
          sql`${tools.description} like ${pattern} escape '\\'`,
        ),
      )
    }
    const rows = db
      .select(toolColumns)
      .from(tools)
      .innerJoin(sources, eq(tools.sourceId, sources.id))
      .where(conditions.length > 0 ? and(...conditions) : undefined)
      .orderBy(asc(tools.path))
      .limit(query.limit ?? -1)
      .all()
    return rows as ToolRow[]
  },

  async countTools(sourceId) {
    const row = db.select({ n: sql<number>`count(*)` }).from(tools).where(eq(tools.sourceId, sourceId)).get()
    return row?.n ?? 0
  },

  async getTool(namespace, name) {
    const row = db
      .select(toolColumns)
      .from(tools)
      .innerJoin(sources, eq(tools.sourceId, sources.id))
      .where(and(eq(sources.namespace, namespace), eq(tools.name, name)))
      .get()
    return (row as ToolRow | undefined) ?? null
  },

  async toolPaths(namespace) {
    const rows = db
      .select({ path: tools.path })
      .from(tools)
      .innerJoin(sources, eq(tools.sourceId, sources.id))
      .where(namespace ? eq(sources.namespace, namespace) : undefined)
      .all()
    return rows.map((r) => r.path)
  },

  async record(execution: ExecutionRecord, calls: ToolCallRecord[]) {
    db.transaction((tx) => {
      tx.insert(executions).values(execution).run()
      for (const call of calls) tx.insert(toolCalls).values({ id: crypto.randomUUID(), ...call }).run()
    })
  },

  async getExecution(id) {
    const row = db.select().from(executions).where(eq(executions.id, id)).get()
    if (!row) return null
    const calls = db.select().from(toolCalls).where(eq(toolCalls.executionId, id)).orderBy(asc(toolCalls.startedAt)).all()
    return {
      ...row,
      status: row.status as ExecutionRecord["status"],
      logs: (row.logs as LogEntry[] | null) ?? [],
      calls: calls.map(({ id: _id, ...call }) => call),
    }
  },
})
