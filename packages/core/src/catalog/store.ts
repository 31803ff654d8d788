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
 *
 * Each table's rows are a module of their own (sources, tools, shapes, executions, approvals, policies, API keys,
 * a source's OAuth);
 * the store makes each of their methods one operation of the dialect (`StoreDialect.around`).
 */
import { apiKeyRows } from "./api-key-rows.js"
import { approvalDecisions } from "./approval-decisions.js"
import { approvalRows } from "./approval-rows.js"
import { executionListing } from "./execution-listing.js"
import { executionReads } from "./execution-reads.js"
import { executionRows } from "./execution-rows.js"
import { policyRows } from "./policy-rows.js"
import { oauthRows } from "./oauth-rows.js"
import type { CatalogStore } from "./rows.js"
import type { StoreDialect } from "./dialect.js"
import { shapeMerger } from "./shape-merge.js"
import { shapeRows } from "./shape-rows.js"
import { sourceRows } from "./source-rows.js"
import { toolRows } from "./tool-rows.js"
import { executionPruner } from "./prune.js"

type Operation = (...args: never[]) => Promise<unknown>
type Around = NonNullable<StoreDialect["around"]>

/** Each of `methods` made one store operation. */
const operations = <T extends { [K in keyof T]: Operation }>(around: Around, methods: T): T => {
  const wrapped: Record<string, Operation> = {}
  for (const [name, method] of Object.entries<Operation>(methods))
    wrapped[name] = (...args) => around(() => method(...args))
  return wrapped as T
}

export const createCatalogStore = (dialect: StoreDialect): CatalogStore => {
  const around: Around = dialect.around?.bind(dialect) ?? ((operation) => operation())
  const executions = executionRows(dialect)

  return {
    ...operations(around, sourceRows(dialect)),
    ...operations(around, toolRows(dialect)),
    ...operations(around, shapeRows(dialect)),
    recordBatch: (entries) => around(() => executions.recordBatch(entries)),
    ...operations(around, executionReads(dialect)),
    ...operations(around, executionListing(dialect)),
    ...operations(around, policyRows(dialect)),
    ...operations(around, approvalRows(dialect, executions)),
    ...operations(around, approvalDecisions(dialect)),
    ...operations(around, apiKeyRows(dialect)),
    ...operations(around, oauthRows(dialect)),

    // each round of it is one operation: it may take several (./shape-merge.ts)
    mergeShapes: shapeMerger(dialect, around),

    // each batch of it is one operation (./prune.ts)
    pruneExecutions: executionPruner(dialect, around),

    checkReadiness: () =>
      around(async () => {
        await dialect.db.select({ id: dialect.tables.sources.id }).from(dialect.tables.sources).limit(1)
        await dialect.probeWrite()
      }),
  }
}
