/** API keys (`api_keys`): each stored by its hash, never the key itself. */
import { and, asc, eq, isNull } from "drizzle-orm"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import { preparedRead } from "./prepared-read.js"
import type { ApiKeyRow } from "./rows.js"

export const apiKeyRows = (dialect: StoreDialect) => {
  const { db, tables } = dialect
  const { apiKeys } = tables
  const toRow = (row: typeof apiKeys.$inferSelect): ApiKeyRow => ({ ...row, scopes: row.scopes as string[] })
  // every request with a key reads it; the hash is unique (no LIMIT: ./prepared-read.ts)
  const keyWithHash = preparedRead(dialect, (param) =>
    db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, param("hash"))),
  )

  return {
    async insertApiKey(row: ApiKeyRow): Promise<void> {
      await db.insert(apiKeys).values(row)
    },

    async findApiKey(hash: string): Promise<ApiKeyRow | null> {
      const row = first(await keyWithHash({ hash }))
      return row ? toRow(row) : null
    },

    async listApiKeys(): Promise<ApiKeyRow[]> {
      return (await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt))).map(toRow)
    },

    async revokeApiKey(id: string, at: number): Promise<boolean> {
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
