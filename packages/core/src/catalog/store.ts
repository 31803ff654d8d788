/**
 * The CatalogStore, written once for every dialect. Queries are authored against drizzle's SQLite builder
 * types; a Postgres dialect hands in its own db and tables under the same shape (./dialect-pg.ts), which
 * works because the builder calls used here (select/insert/update/delete, where, orderBy, limit,
 * onConflictDoUpdate) behave the same on both.
 *
 * Every write that must be atomic is reads, then one batch of statements that commits whole or not at all
 * (`writeBatch`). D1 leaves no other way: it refuses BEGIN, and runs a batch atomically. SQLite and Postgres run
 * the reads inside the batch's transaction; on D1 another writer may change what was read before the batch
 * runs, so the batch's statements hold up anyway: a sync also deletes every tool its batch did not stamp, and a
 * shape merge writes compare-and-set and tries again (./shape-merge.ts).
 */
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm"
import { effectiveEncoding } from "../encodings/encoding.js"
import { chunks, first, rowsPerInsert } from "./chunks.js"
import { approvalRows } from "./approval-rows.js"
import { executionRows } from "./execution-rows.js"
import { policyRows } from "./policy-rows.js"
import type { ApiKeyRow, CatalogStore, SourceRow, SourceStatus, ToolListQuery, ToolRow } from "./rows.js"
import type { StoreDialect } from "./dialect.js"
import { shapeMerger } from "./shape-merge.js"
import { executionPruner } from "./prune.js"
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

export const createCatalogStore = (dialect: StoreDialect): CatalogStore => {
  const { db, tables, maxParameters, writeBatch, probeWrite } = dialect
  const around = dialect.around?.bind(dialect) ?? ((operation) => operation())
  const op =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    (...args: A) =>
      around(() => operation(...args))
  const { sources, tools, apiKeys } = tables
  const toolsPerInsert = rowsPerInsert(tools, maxParameters)
  const executions = executionRows(dialect)
  const policies = policyRows(dialect)
  const approvals = approvalRows(dialect, executions)
  const definitions = schemaDefinitions(dialect)
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
    binding: tools.binding,
    resultEncoding: tools.resultEncoding,
    syncedAt: tools.syncedAt,
  }
  const toSourceRow = (row: typeof sources.$inferSelect): SourceRow => ({ ...row, status: row.status as SourceStatus })
  /** the one place a stored encoding stamp, which may be NULL, becomes the encoding its results are decoded under */
  const toToolRow = (row: Omit<ToolRow, "encoding">): ToolRow => ({
    ...row,
    encoding: effectiveEncoding(row.resultEncoding),
  })

  return {
    listSources: op(async () => (await db.select().from(sources).orderBy(asc(sources.namespace))).map(toSourceRow)),

    getSource: op(async (namespace: string) => {
      const row = first(await db.select().from(sources).where(eq(sources.namespace, namespace)).limit(1))
      return row ? toSourceRow(row) : null
    }),

    insertSource: op(async (row: SourceRow) => {
      await db.insert(sources).values(row)
    }),

    updateSourceConfig: op(async ({ id }: Pick<SourceRow, "id">, config: unknown, at: number, ifUpdatedAt?: number) => {
      const row = eq(sources.id, id)
      await db
        .update(sources)
        .set({ config, updatedAt: at })
        .where(ifUpdatedAt === undefined ? row : and(row, eq(sources.updatedAt, ifUpdatedAt)))
    }),

    deleteSource: op(async (id: string) => {
      await writeBatch((tx) => [
        tx.delete(tools).where(eq(tools.sourceId, id)),
        definitions.deleteAll(tx, id),
        tx.delete(sources).where(eq(sources.id, id)),
      ])
    }),

    applySync: op(async (sourceId, discovered, encoding, syncedAt, shared) => {
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
    }),

    recordSyncError: op(async (sourceId: string, message: string, at: number) => {
      await db
        .update(sources)
        .set({ status: "error", syncError: message, updatedAt: at })
        .where(eq(sources.id, sourceId))
    }),

    listTools: op(async (query: ToolListQuery) => {
      const select = db
        .select(toolColumns)
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(query.namespace ? eq(sources.namespace, query.namespace) : undefined)
        .orderBy(asc(tools.path))
      const rows = query.limit === undefined ? await select : await select.limit(query.limit)
      return rows.map(toToolRow)
    }),

    countTools: op(async (sourceId: string) => {
      const row = first(
        await db.select({ n: sql<number | string>`count(*)` }).from(tools).where(eq(tools.sourceId, sourceId)),
      )
      return Number(row?.n ?? 0) // Postgres counts in bigint, which arrives as a string
    }),

    getTool: op(async (namespace: string, name: string) => {
      const rows = await db
        .select(toolColumns)
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(and(eq(sources.namespace, namespace), eq(tools.name, name)))
        .limit(1)
      const row = first(rows)
      return row ? (await definitions.attach([toToolRow(row)]))[0]! : null
    }),

    withDefinitions: op((rows: ToolRow[]) => definitions.attach(rows)),

    toolPaths: op(async (namespace?: string) => {
      const rows = await db
        .select({ path: tools.path })
        .from(tools)
        .innerJoin(sources, eq(tools.sourceId, sources.id))
        .where(namespace ? eq(sources.namespace, namespace) : undefined)
      return rows.map((r) => r.path)
    }),

    recordBatch: op(executions.recordBatch),
    getExecution: op(executions.getExecution),
    getResult: op(executions.getResult),
    readResultPage: op(executions.readResultPage),
    listExecutions: op(executions.listExecutions),

    listPolicies: op(policies.listPolicies),
    insertPolicy: op(policies.insertPolicy),
    deletePolicy: op(policies.deletePolicy),
    replaceConfigPolicies: op(policies.replaceConfigPolicies),

    recordPause: op(approvals.recordPause),
    getApproval: op(approvals.getApproval),
    listApprovals: op(approvals.listApprovals),
    decideApproval: op(approvals.decideApproval),
    claimResumes: op(approvals.claimResumes),
    completeResume: op(approvals.completeResume),
    passPause: op(approvals.passPause),

    getShape: op(async (toolId: string, encoding: string) => {
      const { toolShapes } = tables
      const { shape, sampleCount, firstSeenAt, lastSeenAt } = toolShapes
      return first(
        await db
          .select({ shape, sampleCount, firstSeenAt, lastSeenAt })
          .from(toolShapes)
          .where(and(eq(toolShapes.toolId, toolId), eq(toolShapes.encoding, encoding)))
          .limit(1),
      )
    }),

    // each round of it is one operation: it may take several (./shape-merge.ts)
    mergeShapes: shapeMerger(dialect, around),

    // each batch of it is one operation (./prune.ts)
    pruneExecutions: executionPruner(dialect, around),

    checkReadiness: op(async () => {
      await db.select({ id: sources.id }).from(sources).limit(1)
      await probeWrite()
    }),

    insertApiKey: op(async (row: ApiKeyRow) => {
      await db.insert(apiKeys).values(row)
    }),

    findApiKey: op(async (hash: string) => {
      const row = first(await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1))
      return row ? toKeyRow(row) : null
    }),

    listApiKeys: op(async () => (await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt))).map(toKeyRow)),

    revokeApiKey: op(async (id: string, at: number) => {
      const existing = first(await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).limit(1))
      if (!existing) return false
      await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      return true
    }),
  }
}
