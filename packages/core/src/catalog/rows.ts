/** Catalog rows as the rest of core sees them, whatever the dialect underneath. */
import type { ResultEncoding } from "../encodings/encoding.js"
import type { DiscoveredTool, ExecutionEntry, ExecutionRecord, TelemetrySink, ToolCallRecord } from "../seams.js"
import type { PruneOptions, PruneReport } from "./prune.js"
import type { RetentionPolicy } from "./retention.js"
import type { OAuthRows } from "./oauth-rows.js"

/** `needs_login`: the source asked for an OAuth login that nobody has made yet (oauth/) */
export type SourceStatus = "ready" | "error" | "needs_login"

export interface SourceRow {
  id: string
  namespace: string
  kind: string
  config: unknown
  status: SourceStatus
  lastSyncedAt: number | null
  syncError: string | null
  createdAt: number
  updatedAt: number
  /**
   * Set when the config's secrets cannot be decrypted with this server's key (they were sealed with another
   * one): the message names the source and what to do. Such a row's secret values are placeholders, so it is
   * never handed to a plugin. Only a store that seals secrets sets it (secrets/sealed-store.ts).
   */
  secretsError?: string
}

export interface ToolRow {
  id: string
  sourceId: string
  namespace: string
  name: string
  path: string
  description: string | null
  inputSchema: unknown
  outputSchema: unknown | null
  annotations: unknown | null
  /** what its plugin calls it with (DiscoveredTool.binding); null when the plugin stored none */
  binding?: unknown | null
  /** the encoding stamp as stored: NULL for a row synced before encodings existed, shown as it is by the API */
  resultEncoding: string | null
  /**
   * what the tool's results are decoded under, settled as the row is read (encodings/encoding.ts
   * `effectiveEncoding`): a NULL or unknown stamp is `direct`
   */
  encoding: ResultEncoding
  syncedAt: number
}

/** Listing only; free-text search ranks in memory (describe/search-tools.ts), one semantics everywhere. */
export interface ToolListQuery {
  namespace?: string
  limit?: number
}

/** A source's new config (`updateSourceConfig`). */
export interface SourceConfigUpdate {
  source: Pick<SourceRow, "id" | "namespace" | "kind">
  config: unknown
  at: number
  /** only if the row was not written since this time: another server's write stays */
  ifUpdatedAt?: number
}

/** What a sync found (`applySync`): the source's tools as listed, the encoding they are stamped with, and when. */
export interface SyncedTools {
  sourceId: string
  tools: DiscoveredTool[]
  encoding: string
  syncedAt: number
  /** the schemas the tools share (Discovery.definitions), replacing the source's whole set */
  definitions?: Record<string, unknown>
}

export interface ApiKeyRow {
  id: string
  name: string
  /** SHA-256 of the key, hex; the key itself is never stored */
  hash: string
  scopes: string[]
  createdAt: number
  revokedAt: number | null
}

export interface StoredExecution extends ExecutionRecord {
  calls: ToolCallRecord[]
}

/** Which executions `listExecutions` returns: a page of them, newest first. */
export interface ExecutionListQuery {
  /** at most this many, newest first (ordered by id descending: ids are UUIDv7, so by start time) */
  limit: number
  /** only those whose id sorts before this one: the cursor of the next page */
  before?: string
  status?: ExecutionRecord["status"]
  /** only executions that failed with this error code */
  errorCode?: string
  /** only executions that called a tool of this namespace (a source's) */
  namespace?: string
  /** only this key's executions; undefined: every execution */
  keyId?: string
}

/** A page of a listing of executions. */
export interface ExecutionListPage {
  executions: ExecutionSummary[]
  /**
   * the `before` of the next page, present when older executions may pass the filters: the last id of a full page
   * (the next may be empty), or where a listing under several filters stopped looking (SCAN_WINDOW), so a page may
   * hold fewer than `limit`, none even, and still name a next
   */
  nextBefore?: string
}

/** One execution in a listing: its record without the texts (code, result, logs) and its calls. */
export interface ExecutionSummary {
  id: string
  status: ExecutionRecord["status"]
  startedAt: number
  durationMs: number
  errorCode: string | null
  toolCallCount: number
  keyId: string | null
  /** length of the stored result text in UTF-16 code units; null when none was stored */
  resultChars: number | null
  /** the script's first line, at most 120 characters (its first line that is not blank, without indentation) */
  codePreview: string
}

/**
 * An execution's stored result text, without the text: who may read it, its size, and how many pages
 * `readResultPage` reads it in (in order from 0; each at most a part's size, but a text stored in its row before
 * results were cut into parts, which is one page).
 */
export interface StoredResult {
  /** the key that made the execution (auth/scopes.ts `canReadExecution`) */
  keyId: string | null
  /** the text's length in UTF-8 bytes; null when the execution stored none (it failed) */
  bytes: number | null
  /** 0 when there is no text; 1 for an empty one */
  pages: number
}

/** A tool's observed data shape under one encoding (`tool_shapes`). The shape is opaque JSON to the store. */
export interface StoredShape {
  shape: unknown
  /** calls observed */
  sampleCount: number
  firstSeenAt: number
  lastSeenAt: number
}

/** One tool's shape observed during an execution, to merge into `tool_shapes`. */
export interface ShapeObservation {
  toolId: string
  /** the tool's effective encoding when the call was decoded */
  encoding: string
  shape: unknown
  /** calls the shape stands for */
  samples: number
  at: number
}

/** What a policy rule does to a call it matches (policy/policy.ts). */
export type PolicyAction = "allow" | "require_approval" | "block"

/** One policy rule (`policies`). A field left null matches anything; a rule with all three null matches every call. */
export interface PolicyRow {
  id: string
  /** a tool path pattern: `*` stands for any run of characters (`fs.*`, `github.delete_*`); null: any path */
  pattern: string | null
  /** a source's namespace; null: any source */
  source: string | null
  /** an annotation hint the tool declares true (`destructiveHint`, `readOnlyHint`, `openWorldHint`, `idempotentHint`); null: any */
  annotation: string | null
  action: PolicyAction
  /** why, for people: shown with an approval and in a `blocked` error */
  reason: string | null
  /** `config`: written from the config file, replaced whole each time the file is applied; `api`: POST /v1/policies */
  origin: "api" | "config"
  createdAt: number
}

export type ApprovalStatus = "pending" | "approved" | "declined" | "expired"

/**
 * One paused call awaiting a decision (`approvals`), with everything its execution needs to resume by replay.
 * An execution that pauses again after a resume gets a new approval; the old one keeps its decision.
 */
export interface ApprovalRow {
  id: string
  executionId: string
  toolPath: string
  /** the call's arguments as the script passed them */
  args: unknown
  /** why it waits: the rule's reason, or the default's */
  reason: string
  /** the policy rule that asked for it; null: the default (destructiveHint) */
  ruleId: string | null
  status: ApprovalStatus
  /** the decider's note (a decline's reason reaches the script) */
  note: string | null
  /** the key that made the execution: only it, or an admin key, sees and decides the approval; null without keys */
  keyId: string | null
  createdAt: number
  expiresAt: number
  decidedAt: number | null
  /** the key that decided; null without keys, or when it expired */
  decidedBy: string | null
  /** while a server replays the execution, until when it holds the resume; null: no resume has started */
  resumeLeaseUntil: number | null
  /**
   * when a resume passed the paused call (made it, or answered it declined): from then on it acts on the world, so
   * no later claimer runs it again (`passPause`); null: no resume got that far
   */
  resumePastPauseAt: number | null
  /** when the resumed run was recorded (finished, or paused again with a new approval); null: not yet */
  resumedAt: number | null
  /** what the resume replays (executor/replay.ts): opaque JSON to the store */
  replay: unknown
}

/** A person's (or the deadline's) decision on a pending approval (`decideApproval`). */
export interface ApprovalDecision {
  id: string
  status: Exclude<ApprovalStatus, "pending">
  note: string | null
  /** the key that decided; null without keys, or when it expired */
  by: string | null
  at: number
  /** until when the decider holds the resume */
  leaseUntil: number
}

/** How a resume ended (`completeResume`): its execution's record, and the approval it paused at again, if it did. */
export interface ResumeEnd {
  approvalId: string
  entry: ExecutionEntry
  at: number
  next?: ApprovalRow
}

export interface ApprovalListQuery {
  status?: ApprovalStatus
  /** only this execution's approvals */
  executionId?: string
  /** only approvals of this key's executions; undefined: all */
  keyId?: string
  limit: number
}

/**
 * Reads and writes catalog rows. One implementation per dialect family; every method is async so a
 * synchronous driver (better-sqlite3) and a remote one (Postgres, D1) look alike to callers.
 */
export interface CatalogStore extends TelemetrySink, OAuthRows {
  listSources(): Promise<SourceRow[]>
  getSource(namespace: string): Promise<SourceRow | null>
  insertSource(row: SourceRow): Promise<void>
  /** Replaces a source's config; with `ifUpdatedAt`, only if the row was not written since that time. */
  updateSourceConfig(update: SourceConfigUpdate): Promise<void>
  deleteSource(id: string): Promise<void>
  /**
   * Replaces a source's tools in one atomic batch: inserts new ones, updates changed ones and stamps their
   * encoding, deletes vanished ones, sets last_synced_at and clears sync_error. A row is never half-written, and a
   * sync that fails changes nothing.
   */
  applySync(synced: SyncedTools): Promise<void>
  /** A failed sync changes nothing but sync_error (and the status it implies). */
  recordSyncError(sourceId: string, message: string, at: number): Promise<void>
  /** The source answered that it needs an OAuth login: status `needs_login`, `message` saying how; its tools stay. */
  recordNeedsLogin(sourceId: string, message: string, at: number): Promise<void>
  listTools(query: ToolListQuery): Promise<ToolRow[]>
  countTools(sourceId: string): Promise<number>
  /** one tool, its schemas carrying as `$defs` the source's shared definitions they reach (`withDefinitions`) */
  getTool(namespace: string, name: string): Promise<ToolRow | null>
  /**
   * The tools with the shared definitions of their source (`Discovery.definitions`) that their schemas reach through
   * `#/$defs/<name>` added as each schema's `$defs`, so each schema stands alone (describe, argument checks). A
   * listing leaves them out: a catalog of thousands of tools is read for names and descriptions.
   */
  withDefinitions(tools: ToolRow[]): Promise<ToolRow[]>
  toolPaths(namespace?: string): Promise<string[]>
  getExecution(id: string): Promise<StoredExecution | null>
  /** An execution's result text as stored, without reading it; null when there is no such execution. */
  getResult(id: string): Promise<StoredResult | null>
  /**
   * One page of an execution's result text (see StoredResult); null when it is not there (the execution was
   * deleted, or its record rewritten, since its StoredResult was read).
   */
  readResultPage(id: string, page: number): Promise<string | null>
  /**
   * A page of executions, newest first, without their texts, at most `limit` (catalog/execution-listing.ts), and
   * where the next page starts when there may be one.
   */
  listExecutions(query: ExecutionListQuery): Promise<ExecutionListPage>
  insertApiKey(row: ApiKeyRow): Promise<void>
  /** the key with this hash, revoked or not */
  findApiKey(hash: string): Promise<ApiKeyRow | null>
  listApiKeys(): Promise<ApiKeyRow[]>
  /** false when there is no such key */
  revokeApiKey(id: string, at: number): Promise<boolean>
  /** The shape stored for (tool, encoding). Describe asks with the tool's current effective encoding only. */
  getShape(toolId: string, encoding: string): Promise<StoredShape | null>
  /**
   * Merges a batch of observations: for each, reads the stored row, merges with `merge` (stored first), and
   * writes it back unless another writer changed it meanwhile, in which case it is merged again onto what that
   * writer left (catalog/shape-merge.ts); sample_count grows by `samples`, first_seen_at keeps the earliest time,
   * last_seen_at the latest. A merge that throws writes nothing. An observation for a tool that no longer exists
   * is skipped; one raced in every one of MAX_MERGE_ROUNDS rounds fails the call (DatabaseFault), never dropped.
   */
  mergeShapes(observations: ShapeObservation[], merge: (stored: unknown, incoming: unknown) => unknown): Promise<void>
  /**
   * Deletes the executions past `policy` (older than its age, or beyond its newest N), with their tool calls and
   * result parts, oldest first, in small batches that are each one operation, yielding between them; an execution
   * whose `keepUntil` is after `now` stays. Resolves when none is left due, or when `signal` or `maxBatches` stops it
   * (catalog/prune.ts).
   */
  pruneExecutions(policy: RetentionPolicy, options: PruneOptions): Promise<PruneReport>
  /**
   * Reads the catalog and commits a write that changes nothing; rejects with the database's own error when either
   * fails (what `GET /readyz` asks). It costs one read and one small write.
   */
  checkReadiness(): Promise<void>

  /** every policy rule, oldest first */
  listPolicies(): Promise<PolicyRow[]>
  insertPolicy(row: PolicyRow): Promise<void>
  /** false when there is no such rule */
  deletePolicy(id: string): Promise<boolean>
  /** replaces every `config` rule with `rows` in one atomic batch; `api` rules stay */
  replaceConfigPolicies(rows: PolicyRow[]): Promise<void>

  /**
   * A run paused: writes its execution record (status `paused`) with its tool calls so far and its approval, in
   * one atomic batch. An execution already stored (a resumed run that paused again) is overwritten, its new calls
   * added.
   */
  recordPause(entry: ExecutionEntry, approval: ApprovalRow): Promise<void>
  getApproval(id: string): Promise<ApprovalRow | null>
  /** newest first */
  listApprovals(query: ApprovalListQuery): Promise<ApprovalRow[]>
  /**
   * Decides a pending approval, compare-and-set: only if it is still `pending` and, for `approved`/`declined`,
   * not yet past `expiresAt` at `at` (for `expired`: past it). Sets status, note, decidedAt = at, decidedBy and
   * resumeLeaseUntil = leaseUntil (the decider resumes it). Returns the row as written, or null when it was not
   * pending (another decided it first), or its deadline said otherwise.
   */
  decideApproval(decision: ApprovalDecision): Promise<ApprovalRow | null>
  /**
   * Approvals whose resume is due and not held: decided (or pending past `expiresAt`, which this marks `expired`
   * first), `resumedAt` null, and `resumeLeaseUntil` null or before `at`. Each returned one is now held until
   * `leaseUntil` by the caller (compare-and-set per row: two servers never both get the same one). At most `limit`.
   */
  claimResumes(at: number, leaseUntil: number, limit: number): Promise<ApprovalRow[]>
  /**
   * A resume ended: overwrites the execution's record (final, or `paused` again), adds `entry.calls` (only the calls
   * this resume made: the replayed ones are stored already), sets this approval's `resumedAt` to `at`, and inserts
   * `next` (the approval it paused at again), in one atomic batch.
   */
  completeResume(end: ResumeEnd): Promise<void>
  /**
   * A resume reached its paused call: sets `resumePastPauseAt` if no resume did before and none was recorded.
   * False when one did (or the row is gone): this resume must not go past the pause.
   */
  passPause(approvalId: string, at: number): Promise<boolean>
}
