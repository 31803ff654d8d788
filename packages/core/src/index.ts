/**
 * @switchboard/core — the domain: result contract, encodings, catalog, executor, rendering.
 * Web-standard APIs only: it runs unchanged on Node 20 and on Cloudflare Workers. It imports no plugin,
 * runtime or host; those implement the seams declared in ./seams.ts.
 */
export * from "./result.js"
export * from "./seams.js"
export * from "./errors.js"
export { isRecord, own } from "./is-record.js"
export { classifyAddress, ipLiteral } from "./egress/address-class.js"
export type { AddressClass } from "./egress/address-class.js"
export { SourceRefusal, findRefusal, isSourceRefusal } from "./egress/source-refusal.js"
export { countJsonNodes, createJsonScan } from "./json-scan.js"
export type { JsonScan } from "./json-scan.js"
export * from "./encodings/encoding.js"
export { decodeToolResult, parseExactJson } from "./encodings/decode.js"
export type {
  CatalogStore,
  SourceRow,
  ToolRow,
  ToolListQuery,
  StoredExecution,
  ExecutionListQuery,
  ExecutionSummary,
  SourceStatus,
  StoredShape,
  ShapeObservation,
  PolicyRow,
  PolicyAction,
  ApprovalRow,
  ApprovalStatus,
  ApprovalListQuery,
  StoredResult,
} from "./catalog/rows.js"
export { storedOutputPages, textPages } from "./catalog/result-pages.js"
export type { OutputPages } from "./render/read-output.js"
export { ResumeConflict, isResumeConflict } from "./catalog/approval-rows.js"
export { createCatalogStore } from "./catalog/store.js"
export { MAX_MERGE_ROUNDS } from "./catalog/shape-merge.js"
export { PRUNE_BATCH } from "./catalog/prune.js"
export type { PruneOptions, PruneReport } from "./catalog/prune.js"
export { POINTED_OUTPUT_HOLD_MS, describeRetention, parseRetention } from "./catalog/retention.js"
export type { RetentionPolicy, RetentionText } from "./catalog/retention.js"
export type { StoreDialect, CatalogDb, CatalogTables, WriteStatement } from "./catalog/dialect.js"
export { createSqliteCatalogStore } from "./catalog/dialect-sqlite.js"
export type { SqliteCatalogDb, SqliteStoreOptions } from "./catalog/dialect-sqlite.js"
export { DatabaseFault, isDatabaseFault, driverMessage } from "./database-fault.js"
export { DEFAULT_BUSY_WAIT_MS } from "./catalog/busy-retry.js"
export { createPgCatalogStore } from "./catalog/dialect-pg.js"
export type { PgCatalogDb, PgStoreOptions } from "./catalog/dialect-pg.js"
export { createD1CatalogStore } from "./catalog/dialect-d1.js"
export type { D1CatalogDb, D1StoreOptions } from "./catalog/dialect-d1.js"
export * as sqliteSchema from "./catalog/schema-sqlite.js"
export * as pgSchema from "./catalog/schema-pg.js"
export { createSourcesService } from "./sources/sources-service.js"
export { sourceView } from "./sources/source-view.js"
export { splitToolPath } from "./catalog/tool-path.js"
export type { SourcesService, SourceUpdate, SourceView, SyncOptions } from "./sources/sources-service.js"
export type { ProgressListener } from "./sources/sync-progress.js"
export { createExecutor } from "./executor/executor.js"
export type { Executor, ExecutorOptions } from "./executor/executor.js"
export { DEFAULT_APPROVAL_TTL_MS } from "./executor/pause.js"
export type { ApprovalSummary, EndedResponse, ExecuteResponse, PausedResponse } from "./executor/response.js"
export { isPausedResponse } from "./executor/response.js"
export type { ReplayRecord, RecordedCall } from "./executor/replay.js"
export { closestNames } from "./executor/suggest.js"
export { createPolicyService, DEFAULT_POLICY_REFRESH_MS } from "./policy/policy-service.js"
export type { PolicyService } from "./policy/policy-service.js"
export { policyRequest } from "./policy/policy-request.js"
export type { PolicyRequest } from "./policy/policy-request.js"
export {
  effectivePolicy,
  describeRule,
  POLICY_ACTIONS,
  POLICY_ANNOTATIONS,
  DEFAULT_ALLOW_REASON,
  DEFAULT_APPROVAL_REASON,
} from "./policy/policy.js"
export type { EffectivePolicy, PolicySubject } from "./policy/policy.js"
export { createApprovalsService, decisionRequest, parseWait, WAIT_MAX_MS } from "./approvals/approvals-service.js"
export type { ApprovalsService, ApprovalWait, DecisionRequest } from "./approvals/approvals-service.js"
export { defaultLimits, minimumLimits } from "./limits.js"
export {
  NAMESPACE_PATTERN,
  addSourceRequest,
  describeRequest,
  executeRequest,
  parseRequest,
  runLimitsRequest,
  sourceFields,
  updateSourceRequest,
  wholeNumber,
} from "./request-schemas.js"
export type { DescribeRequest, ExecuteRequest, SourceKind } from "./request-schemas.js"
export { createGroupCommit, DEFAULT_MAX_BATCH } from "./executor/group-commit.js"
export type { GroupCommit, GroupCommitOptions } from "./executor/group-commit.js"
export { timeOrderedId } from "./ids.js"
export { renderForModel } from "./render/render-for-model.js"
export { renderResult } from "./render/render-result.js"
export { parseOnRead } from "./render/parse-on-read.js"
export type { RenderOptions, RenderedResult } from "./render/render-result.js"
export {
  inlineText,
  readOnThroughApi,
  splitLines,
  toWellFormed,
  DEFAULT_INLINE_CAP,
} from "./render/render-for-model.js"
export type { ReadOn } from "./render/render-for-model.js"
export type { InlineText } from "./render/render-for-model.js"
export {
  readOutputLines,
  grepOutput,
  grepInPlace,
  readAllPages,
  DEFAULT_PAGE_LINES,
  MAX_PAGE_LINES,
  MAX_GREP_MATCHES,
} from "./render/read-output.js"
export type { OutputPage, GrepFailureCode, GrepOutcome, GrepRunner } from "./render/read-output.js"
export {
  inferShape,
  mergeShapes,
  mergeStoredShapes,
  normalizeShape,
  shapeToTypeScript,
  ShapeBounds,
} from "./shapes/index.js"
export type { Shape, ArrayShape, FieldShape, ObjectShape, RecordShape, UnionShape } from "./shapes/index.js"
export {
  describeTool,
  describeTools,
  loadObservedShape,
  provenance,
  jsonSchemaToTypeScript,
  createTypeScope,
  TOOL_RESULT_DECLARATION,
} from "./describe/index.js"
export type {
  DescribeToolInput,
  ToolDescription,
  OutputSource,
  JsonSchemaToTypeScriptOptions,
  JsonSchemaTypeScript,
  TypeScope,
} from "./describe/index.js"
export { createDescribeService } from "./describe/describe-service.js"
export { DEFAULT_DESCRIBE_LIMIT, MAX_DESCRIBE_TOOLS } from "./describe-bounds.js"
export type { DescribeService, DescribeResult } from "./describe/describe-service.js"
export { rankTools, scoreTool, words } from "./describe/search-tools.js"
export { MAX_API_KEY_LENGTH, createApiKeyService, hashKey } from "./auth/api-keys.js"
export { ADMIN_KEY_ENV, ADMIN_KEY_NAME, adminKeyProblem, storeAdminKey } from "./auth/admin-key.js"
export {
  createSecretBox,
  generateSecretKey,
  parseSecretKey,
  encodeSecretKey,
  isSealed,
  SEALED_PREFIX,
  SECRET_KEY_BYTES,
} from "./secrets/secret-box.js"
export type { SecretBox, OpenResult } from "./secrets/secret-box.js"
export { createSealedCatalogStore, secretAad, UNREADABLE_SECRET } from "./secrets/sealed-store.js"
export type { SealedCatalogStore, SealedStoreOptions } from "./secrets/sealed-store.js"
export type { ApiKeyService, ApiKeyRow } from "./auth/api-keys.js"
export {
  SCOPES,
  SCOPE_DESCRIPTIONS,
  OPEN_CALLER,
  effectiveScope,
  callerOf,
  hasScope,
  missingScopeMessage,
  canReadExecution,
  readExecutionAs,
  readResultAs,
  listExecutionsAs,
  listExecutionsPage,
  DEFAULT_LIST_EXECUTIONS,
  MAX_LIST_EXECUTIONS,
  parseScopes,
} from "./auth/scopes.js"
export type { Scope, Caller } from "./auth/scopes.js"
export * as Services from "./services/index.js"
