/**
 * @switchboard/core — the domain: result contract, encodings, catalog, executor, rendering.
 * Web-standard APIs only: it runs unchanged on Node 20 and on Cloudflare Workers. It imports no plugin,
 * runtime or host; those implement the seams declared in ./seams.ts.
 */
export * from "./result.js"
export * from "./seams.js"
export * from "./errors.js"
export * from "./encodings/encoding.js"
export { decodeToolResult } from "./encodings/decode.js"
export type { CatalogStore, SourceRow, ToolRow, ToolListQuery, StoredExecution, SourceStatus } from "./catalog/rows.js"
export { createSqliteCatalogStore } from "./catalog/sqlite-store.js"
export type { SqliteCatalogDb } from "./catalog/sqlite-store.js"
export * as sqliteSchema from "./catalog/schema-sqlite.js"
export { createSourcesService, NAMESPACE_PATTERN } from "./catalog/sources-service.js"
export type { SourcesService, SourceView } from "./catalog/sources-service.js"
export { createExecutor, defaultLimits } from "./executor/executor.js"
export type { Executor, ExecuteRequest, ExecuteResponse } from "./executor/executor.js"
export { renderForModel } from "./render/render-for-model.js"
export { inlineText, splitLines, toWellFormed, DEFAULT_INLINE_CAP } from "./render/render-for-model.js"
export type { InlineText } from "./render/render-for-model.js"
export { readOutputLines, grepOutput } from "./render/read-output.js"
export type { OutputPage, GrepOutcome } from "./render/read-output.js"
