/** Sources (`sources`): a row per namespace, its config as the sealed store hands it down, and its sync's state. */
import { and, asc, eq } from "drizzle-orm"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import { preparedRead } from "./prepared-read.js"
import type { SourceConfigUpdate, SourceRow, SourceStatus } from "./rows.js"

export const sourceRows = (dialect: StoreDialect) => {
  const { db, tables, writeBatch } = dialect
  const { sources, tools, sourceAuth, oauthClients, oauthStates } = tables
  const toRow = (row: typeof sources.$inferSelect): SourceRow => ({ ...row, status: row.status as SourceStatus })
  // every execute reads the sources its calls name; the namespace is unique (no LIMIT: ./prepared-read.ts)
  const sourceNamed = preparedRead(dialect, (param) =>
    db
      .select()
      .from(sources)
      .where(eq(sources.namespace, param("namespace"))),
  )

  return {
    async listSources(): Promise<SourceRow[]> {
      return (await db.select().from(sources).orderBy(asc(sources.namespace))).map(toRow)
    },

    async getSource(namespace: string): Promise<SourceRow | null> {
      const row = first(await sourceNamed({ namespace }))
      return row ? toRow(row) : null
    },

    async insertSource(row: SourceRow): Promise<void> {
      await db.insert(sources).values(row)
    },

    async updateSourceConfig({ source, config, at, ifUpdatedAt }: SourceConfigUpdate): Promise<void> {
      const row = eq(sources.id, source.id)
      await db
        .update(sources)
        .set({ config, updatedAt: at })
        .where(ifUpdatedAt === undefined ? row : and(row, eq(sources.updatedAt, ifUpdatedAt)))
    },

    async deleteSource(id: string): Promise<void> {
      await writeBatch((tx) => [
        tx.delete(tools).where(eq(tools.sourceId, id)),
        tx.delete(tables.sourceDefinitions).where(eq(tables.sourceDefinitions.sourceId, id)),
        tx.delete(sourceAuth).where(eq(sourceAuth.sourceId, id)),
        tx.delete(oauthClients).where(eq(oauthClients.sourceId, id)),
        tx.delete(oauthStates).where(eq(oauthStates.sourceId, id)),
        tx.delete(sources).where(eq(sources.id, id)),
      ])
    },

    async recordSyncError(sourceId: string, message: string, at: number): Promise<void> {
      await db
        .update(sources)
        .set({ status: "error", syncError: message, updatedAt: at })
        .where(eq(sources.id, sourceId))
    },

    async recordNeedsLogin(sourceId: string, message: string, at: number): Promise<void> {
      await db
        .update(sources)
        .set({ status: "needs_login", syncError: message, updatedAt: at })
        .where(eq(sources.id, sourceId))
    },
  }
}
