/** The catalog's public face: its rows, the store for each database, stored output's pages, retention and pruning. */
export { createD1CatalogStore } from "./dialect-d1.js"
export { createPgCatalogStore } from "./dialect-pg.js"
export { createSqliteCatalogStore } from "./dialect-sqlite.js"
export { PRUNE_BATCH } from "./prune.js"
export type { PruneOptions, PruneReport } from "./prune.js"
export { storedOutputPages, textPages } from "./result-pages.js"
export { describeRetention, parseRetention } from "./retention.js"
export type { RetentionPolicy } from "./retention.js"
export type {
  SourceRow,
  ToolRow,
  StoredExecution,
  ExecutionListQuery,
  ExecutionSummary,
  PolicyRow,
  ApprovalRow,
} from "./rows.js"
export * as sqliteSchema from "./schema-sqlite.js"
export { splitToolPath } from "./tool-path.js"
