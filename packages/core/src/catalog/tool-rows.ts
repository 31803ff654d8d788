/**
 * Tools (`tools`): a sync replaces a source's tools (and the schemas they share, ./schema-definitions.ts) in one
 * batch, and reads answer a row with its encoding settled (`ToolRow.encoding`); one tool comes with the shared
 * definitions its schemas reach.
 */
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm"
import { effectiveEncoding } from "../encodings/encoding.js"
import { chunks, first, rowsPerInsert } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import type { SyncedTools, ToolListQuery, ToolRow } from "./rows.js"
import { preparedRead } from "./prepared-read.js"
import { schemaDefinitions } from "./schema-definitions.js"

/** what a re-sync rewrites on a kept tool: everything the server reports, and the encoding stamp */
const syncedColumns = Object.fromEntries(
  ["description", "input_schema", "output_schema", "annotations", "binding", "result_encoding", "synced_at"].map(
    (column) => [camel(column), sql.raw(`excluded."${column}"`)],
  ),
)

function camel(column: string) {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
}

export const toolRows = (dialect: StoreDialect) => {
  const { db, tables, maxParameters, writeBatch } = dialect
  const { sources, tools } = tables
  const toolsPerInsert = rowsPerInsert(tools, maxParameters)
  const definitions = schemaDefinitions(dialect)
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
    binding: tools.binding,
    resultEncoding: tools.resultEncoding,
    syncedAt: tools.syncedAt,
  }
  // every execute reads the tools its calls name; (source, name) is unique (no LIMIT: ./prepared-read.ts)
  const toolNamed = preparedRead(dialect, (param) =>
    db
      .select(toolColumns)
      .from(tools)
      .innerJoin(sources, eq(tools.sourceId, sources.id))
      .where(and(eq(sources.namespace, param("namespace")), eq(tools.name, param("name")))),
  )
  /** the one place a stored encoding stamp, which may be NULL, becomes the encoding its results are decoded under */
  const toRow = (row: Omit<ToolRow, "encoding">): ToolRow => ({
    ...row,
    encoding: effectiveEncoding(row.resultEncoding),
  })

  return {
    async applySync({
      sourceId,
      tools: discovered,
      encoding,
      syncedAt,
      definitions: shared,
    }: SyncedTools): Promise<void> {
      // two servers syncing one source: the second waits for the first's batch, then reads what it left
      await writeBatch(
        async (tx) => {
          const source = first(
            await tx.select({ namespace: sources.namespace }).from(sources).where(eq(sources.id, sourceId)).limit(1),
          )
          if (!source) return []
          const existing = await tx
            .select({ id: tools.id, name: tools.name })
            .from(tools)
            .where(eq(tools.sourceId, sourceId))
          const ids = new Map(existing.map((t) => [t.name, t.id]))
          const seen = new Set<string>()
          const rows: (typeof tools.$inferInsert)[] = []
          for (const tool of discovered) {
            if (seen.has(tool.name)) continue // a server that lists a name twice: the first listing wins
            seen.add(tool.name)
            rows.push({
              id: ids.get(tool.name) ?? crypto.randomUUID(),
              sourceId,
              name: tool.name,
              path: `${source.namespace}.${tool.name}`,
              description: tool.description,
              inputSchema: tool.inputSchema ?? null,
              outputSchema: tool.outputSchema ?? null,
              annotations: tool.annotations ?? null,
              binding: tool.binding ?? null,
              resultEncoding: encoding,
              syncedAt,
            })
          }
          const vanished = existing.filter((t) => !seen.has(t.name)).map((t) => t.id)
          return [
            // multi-row upserts on (source, name): a concurrent sync on another server cannot duplicate a row, and
            // a row is written whole in one statement, so it is never half-old and half-new
            ...Array.from(chunks(rows, toolsPerInsert), (chunk) =>
              tx
                .insert(tools)
                .values(chunk)
                .onConflictDoUpdate({ target: [tools.sourceId, tools.name], set: syncedColumns }),
            ),
            ...Array.from(chunks(vanished, maxParameters), (chunk) => tx.delete(tools).where(inArray(tools.id, chunk))),
            // Where the read ran outside the batch (D1), a sync that committed in between may have added tools this
            // one did not read: whatever this batch did not stamp goes too, so the last batch to commit leaves its
            // own listing. (Two such syncs stamped with the same millisecond can leave both listings' tools, until
            // the next sync.)
            tx.delete(tools).where(and(eq(tools.sourceId, sourceId), ne(tools.syncedAt, syncedAt))),
            // the shared definitions are replaced with the tools, in the same batch
            ...definitions.replace(tx, sourceId, shared ?? {}, syncedAt),
            tx
              .update(sources)
              .set({ status: "ready", lastSyncedAt: syncedAt, syncError: null, updatedAt: syncedAt })
              .where(eq(sources.id, sourceId)),
          ]
        },
        { lockKeys: [`sync:${sourceId}`] },
      )
    },

    async listTools(query: ToolListQuery): Promise<ToolRow[]> {
      const select = db
        .select(toolColumns)
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(query.namespace ? eq(sources.namespace, query.namespace) : undefined)
        .orderBy(asc(tools.path))
      const rows = query.limit === undefined ? await select : await select.limit(query.limit)
      return rows.map(toRow)
    },

    async countTools(sourceId: string): Promise<number> {
      const row = first(
        await db.select({ n: sql<number | string>`count(*)` }).from(tools).where(eq(tools.sourceId, sourceId)),
      )
      return Number(row?.n ?? 0) // Postgres counts in bigint, which arrives as a string
    },

    async getTool(namespace: string, name: string): Promise<ToolRow | null> {
      const row = first(await toolNamed({ namespace, name }))
      return row ? ((await definitions.attach([toRow(row)]))[0] ?? null) : null
    },

    withDefinitions: (rows: ToolRow[]): Promise<ToolRow[]> => definitions.attach(rows),

    async toolPaths(namespace?: string): Promise<string[]> {
      const rows = await db
        .select({ path: tools.path })
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(namespace ? eq(sources.namespace, namespace) : undefined)
      return rows.map((r) => r.path)
    },
  }
}
