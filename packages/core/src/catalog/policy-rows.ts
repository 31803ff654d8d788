/**
 * Policy rules (`policies`): the ones written through the API, and the config file's, which are replaced whole
 * each time the file is applied. What a rule does to a call is policy/policy.ts's business, not the store's.
 */
import { asc, eq } from "drizzle-orm"
import { chunks, rowsPerInsert } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import type { PolicyAction, PolicyRow } from "./rows.js"

export const policyRows = ({ db, tables, maxParameters, writeBatch }: StoreDialect) => {
  const { policies } = tables
  const perInsert = rowsPerInsert(policies, maxParameters)
  const toRow = (row: typeof policies.$inferSelect): PolicyRow => ({
    ...row,
    action: row.action as PolicyAction,
    origin: row.origin as PolicyRow["origin"],
  })

  return {
    async listPolicies(): Promise<PolicyRow[]> {
      return (await db.select().from(policies).orderBy(asc(policies.createdAt), asc(policies.id))).map(toRow)
    },

    async insertPolicy(row: PolicyRow): Promise<void> {
      await db.insert(policies).values(row)
    },

    async deletePolicy(id: string): Promise<boolean> {
      const deleted = await db.delete(policies).where(eq(policies.id, id)).returning({ id: policies.id })
      return deleted.length > 0
    },

    async replaceConfigPolicies(rows: PolicyRow[]): Promise<void> {
      // a rule stored as `api` from here would outlive every later apply of the file
      const other = rows.find((row) => row.origin !== "config")
      if (other)
        throw new RangeError(`replaceConfigPolicies takes config rules only (rule ${other.id} is ${other.origin})`)
      await writeBatch(
        (tx) => [
          tx.delete(policies).where(eq(policies.origin, "config")),
          ...Array.from(chunks(rows, perInsert), (chunk) => tx.insert(policies).values(chunk)),
        ],
        // two servers applying their files at once on Postgres: the second deletes what the first inserted, rather
        // than insert the same ids beside it
        { lockKeys: ["policies:config"] },
      )
    },
  }
}
