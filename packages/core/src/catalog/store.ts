/**
 * The CatalogStore, written once for every dialect. Queries are authored against drizzle's SQLite builder
 * types; a Postgres dialect hands in its own db and tables under the same shape (./dialect-pg.ts), which
 * works because the builder calls used here (select/insert/update/delete, where, orderBy, limit,
 * onConflictDoUpdate) behave the same on both. What truly differs — how a transaction is opened — is the
 * dialect's `transaction`.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm"
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core"
import type { ExecutionEntry, ExecutionRecord, LogEntry } from "../seams.js"
import { timeOrderedId } from "../ids.js"
import type { ApiKeyRow, CatalogStore, SourceRow, SourceStatus, ToolListQuery, ToolRow } from "./rows.js"
import type * as schema from "./schema-sqlite.js"

/** The query surface shared by the dialects (typed as SQLite's async builder; Postgres is cast to it). */
export type CatalogDb = Pick<BaseSQLiteDatabase<"async", unknown>, "select" | "insert" | "update" | "delete">
export type CatalogTables = Pick<
  typeof schema,
  "sources" | "tools" | "toolShapes" | "executions" | "toolCalls" | "apiKeys"
>

export interface StoreDialect {
  db: CatalogDb
  tables: CatalogTables
  /** Runs `work` atomically: every statement commits together or none does. */
  transaction<T>(work: (tx: CatalogDb) => Promise<T>): Promise<T>
  /**
   * Inside a transaction, waits until no other transaction holds `key`, then holds it to commit: a
   * read-modify-write of one row from two servers then cannot lose an update. A dialect whose
   * transactions already exclude each other (SQLite) does nothing.
   */
  lockKey?(tx: CatalogDb, key: string): Promise<void>
  /**
   * Inserts one executions row with a statement prepared once, inside the open transaction; used for every row
   * of a batch (on SQLite a prepared statement run per row costs a few µs, where the builder's multi-row insert
   * cost about 45 µs to build and prepare). A dialect whose transaction runs on another connection than `db`
   * (Postgres) leaves it out, and the rows go through the builder, many per statement.
   */
  insertExecution?(row: ExecutionRecord): unknown
  /**
   * Inside a transaction, a write that changes nothing but does reach the database as a real one would
   * (`checkReadiness`): a write rolled back before COMMIT proves little on SQLite, which never touches the file
   * for it.
   */
  probeWrite(tx: CatalogDb): Promise<void>
}

/** rows per insert or upsert statement: 10 or 11 columns each stays far below either dialect's parameter limit */
const ROW_CHUNK = 200

/**
 * characters of text per executions insert: a stored result may be megabytes, and Postgres refuses a message
 * over 1 GiB, so a batch of large results is split (a single larger execution still goes alone)
 */
const EXECUTION_CHUNK_CHARS = 16 * 1024 * 1024

const textSize = ({ code, resultText, errorMessage, logs }: ExecutionRecord) => {
  let size = code.length + (resultText?.length ?? 0) + (errorMessage?.length ?? 0)
  for (const entry of logs) size += entry.message.length
  return size
}

/** executions rows for multi-row inserts, in order, each chunk under ROW_CHUNK rows and EXECUTION_CHUNK_CHARS */
function* executionChunks(entries: readonly ExecutionEntry[]) {
  let chunk: ExecutionRecord[] = []
  let size = 0
  for (const { execution } of entries) {
    const own = textSize(execution)
    if (chunk.length > 0 && (chunk.length === ROW_CHUNK || size + own > EXECUTION_CHUNK_CHARS)) {
      yield chunk
      chunk = []
      size = 0
    }
    chunk.push(execution)
    size += own
  }
  if (chunk.length > 0) yield chunk
}

/** what a re-sync rewrites on a kept tool: everything the server reports, and the encoding stamp */
const syncedColumns = Object.fromEntries(
  ["description", "input_schema", "output_schema", "annotations", "result_encoding", "synced_at"].map((column) => [
    camel(column),
    sql.raw(`excluded."${column}"`),
  ]),
)

function camel(column: string) {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
}

export const createCatalogStore = ({
  db,
  tables,
  transaction,
  lockKey,
  insertExecution,
  probeWrite,
}: StoreDialect): CatalogStore => {
  const { sources, tools, toolShapes, executions, toolCalls, apiKeys } = tables
  const toKeyRow = (row: typeof apiKeys.$inferSelect): ApiKeyRow => ({ ...row, scopes: row.scopes as string[] })
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
  const first = <T>(rows: T[]): T | null => rows[0] ?? null

  return {
    async listSources() {
      return (await db.select().from(sources).orderBy(asc(sources.namespace))).map(toSourceRow)
    },

    async getSource(namespace) {
      const row = first(await db.select().from(sources).where(eq(sources.namespace, namespace)).limit(1))
      return row ? toSourceRow(row) : null
    },

    async insertSource(row) {
      await db.insert(sources).values(row)
    },

    async updateSourceConfig({ id }, config, at, ifUpdatedAt) {
      const row = eq(sources.id, id)
      await db
        .update(sources)
        .set({ config, updatedAt: at })
        .where(ifUpdatedAt === undefined ? row : and(row, eq(sources.updatedAt, ifUpdatedAt)))
    },

    async deleteSource(id) {
      await transaction(async (tx) => {
        await tx.delete(tools).where(eq(tools.sourceId, id))
        await tx.delete(sources).where(eq(sources.id, id))
      })
    },

    async applySync(sourceId, discovered, encoding, syncedAt) {
      await transaction(async (tx) => {
        // two servers syncing one source: the second waits and then diffs against the first's result
        await lockKey?.(tx, `sync:${sourceId}`)
        const source = first(
          await tx.select({ namespace: sources.namespace }).from(sources).where(eq(sources.id, sourceId)).limit(1),
        )
        if (!source) return
        const existing = new Map(
          (await tx.select({ id: tools.id, name: tools.name }).from(tools).where(eq(tools.sourceId, sourceId))).map(
            (t) => [t.name, t.id],
          ),
        )
        const seen = new Set<string>()
        const rows = []
        for (const tool of discovered) {
          if (seen.has(tool.name)) continue // a server that lists a name twice: the first listing wins
          seen.add(tool.name)
          rows.push({
            id: existing.get(tool.name) ?? crypto.randomUUID(),
            sourceId,
            name: tool.name,
            path: `${source.namespace}.${tool.name}`,
            description: tool.description,
            inputSchema: tool.inputSchema ?? null,
            outputSchema: tool.outputSchema ?? null,
            annotations: tool.annotations ?? null,
            resultEncoding: encoding,
            syncedAt,
          })
        }
        // multi-row upserts on (source, name): a concurrent sync on another server cannot duplicate a row,
        // and a row is written whole in one statement, so it is never half-old and half-new
        for (let i = 0; i < rows.length; i += ROW_CHUNK) {
          await tx
            .insert(tools)
            .values(rows.slice(i, i + ROW_CHUNK))
            .onConflictDoUpdate({ target: [tools.sourceId, tools.name], set: syncedColumns })
        }
        const vanished = [...existing].filter(([name]) => !seen.has(name)).map(([, id]) => id)
        if (vanished.length > 0) await tx.delete(tools).where(inArray(tools.id, vanished))
        await tx
          .update(sources)
          .set({ status: "ready", lastSyncedAt: syncedAt, syncError: null, updatedAt: syncedAt })
          .where(eq(sources.id, sourceId))
      })
    },

    async recordSyncError(sourceId, message, at) {
      await db
        .update(sources)
        .set({ status: "error", syncError: message, updatedAt: at })
        .where(eq(sources.id, sourceId))
    },

    async listTools(query: ToolListQuery) {
      const select = db
        .select(toolColumns)
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(query.namespace ? eq(sources.namespace, query.namespace) : undefined)
        .orderBy(asc(tools.path))
      return (query.limit === undefined ? await select : await select.limit(query.limit)) as ToolRow[]
    },

    async countTools(sourceId) {
      const row = first(
        await db.select({ n: sql<number | string>`count(*)` }).from(tools).where(eq(tools.sourceId, sourceId)),
      )
      return Number(row?.n ?? 0) // Postgres counts in bigint, which arrives as a string
    },

    async getTool(namespace, name) {
      const rows = await db
        .select(toolColumns)
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(and(eq(sources.namespace, namespace), eq(tools.name, name)))
        .limit(1)
      return (first(rows) as ToolRow | null) ?? null
    },

    async toolPaths(namespace) {
      const rows = await db
        .select({ path: tools.path })
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(namespace ? eq(sources.namespace, namespace) : undefined)
      return rows.map((r) => r.path)
    },

    async recordBatch(entries: readonly ExecutionEntry[]) {
      if (entries.length === 0) return
      await transaction(async (tx) => {
        if (insertExecution) for (const { execution } of entries) insertExecution(execution)
        else for (const rows of executionChunks(entries)) await tx.insert(executions).values(rows)
        const calls = entries.flatMap((entry) =>
          entry.calls.map((call) => ({
            id: timeOrderedId(),
            ...call,
            outputSchemaError: call.outputSchemaError ?? null,
          })),
        )
        // chunked: every dialect caps the parameters of one statement
        for (let i = 0; i < calls.length; i += ROW_CHUNK)
          await tx.insert(toolCalls).values(calls.slice(i, i + ROW_CHUNK))
      })
    },

    async getExecution(id) {
      const row = first(await db.select().from(executions).where(eq(executions.id, id)).limit(1))
      if (!row) return null
      const calls = await db
        .select()
        .from(toolCalls)
        .where(eq(toolCalls.executionId, id))
        .orderBy(asc(toolCalls.startedAt))
      return {
        ...row,
        status: row.status as ExecutionRecord["status"],
        logs: (row.logs as LogEntry[] | null) ?? [],
        calls: calls.map(({ id: _id, ...call }) => call),
      }
    },
    async getShape(toolId, encoding) {
      const { shape, sampleCount, firstSeenAt, lastSeenAt } = toolShapes
      return first(
        await db
          .select({ shape, sampleCount, firstSeenAt, lastSeenAt })
          .from(toolShapes)
          .where(and(eq(toolShapes.toolId, toolId), eq(toolShapes.encoding, encoding)))
          .limit(1),
      )
    },

    async mergeShapes(observations, merge) {
      if (observations.length === 0) return
      await transaction(async (tx) => {
        // one order for every transaction, so two flushes that share tools cannot deadlock on their locks
        const ordered = [...observations].sort((a, b) =>
          a.toolId + a.encoding < b.toolId + b.encoding ? -1 : a.toolId + a.encoding > b.toolId + b.encoding ? 1 : 0,
        )
        for (const o of ordered) {
          await lockKey?.(tx, `tool_shapes:${o.toolId}:${o.encoding}`)
          const key = and(eq(toolShapes.toolId, o.toolId), eq(toolShapes.encoding, o.encoding))
          const stored = first(await tx.select().from(toolShapes).where(key).limit(1))
          if (stored) {
            await tx
              .update(toolShapes)
              .set({
                shape: merge(stored.shape, o.shape),
                sampleCount: stored.sampleCount + o.samples,
                firstSeenAt: Math.min(stored.firstSeenAt, o.at),
                lastSeenAt: Math.max(stored.lastSeenAt, o.at),
              })
              .where(key)
            continue
          }
          // A re-sync may have removed the tool since the call; its shape has nowhere to go.
          if (!first(await tx.select({ id: tools.id }).from(tools).where(eq(tools.id, o.toolId)).limit(1))) continue
          await tx
            .insert(toolShapes)
            .values({
              toolId: o.toolId,
              encoding: o.encoding,
              shape: o.shape,
              sampleCount: o.samples,
              firstSeenAt: o.at,
              lastSeenAt: o.at,
            })
            .onConflictDoNothing()
        }
      })
    },

    async checkReadiness() {
      await transaction(async (tx) => {
        await tx.select({ id: sources.id }).from(sources).limit(1)
        await probeWrite(tx)
      })
    },

    async insertApiKey(row) {
      await db.insert(apiKeys).values(row)
    },

    async findApiKey(hash) {
      const row = first(await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1))
      return row ? toKeyRow(row) : null
    },

    async listApiKeys() {
      return (await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt))).map(toKeyRow)
    },

    async revokeApiKey(id, at) {
      const existing = first(await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).limit(1))
      if (!existing) return false
      await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      return true
    },
  }
}
