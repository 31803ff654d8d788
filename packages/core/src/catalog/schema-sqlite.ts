/**
 * The catalog schema for SQLite and D1 (ARCHITECTURE.md: data model). Times are epoch milliseconds; JSON columns hold text.
 * Changes are additive: a new column is nullable, so an old row means old behaviour until it is stamped.
 */
import { sql } from "drizzle-orm"
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core"

export const sources = sqliteTable("sources", {
  id: text("id").primaryKey(),
  namespace: text("namespace").notNull().unique(),
  kind: text("kind").notNull(),
  config: text("config", { mode: "json" }).notNull(),
  status: text("status").notNull(),
  lastSyncedAt: integer("last_synced_at"),
  syncError: text("sync_error"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
})

export const tools = sqliteTable(
  "tools",
  {
    id: text("id").primaryKey(),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    path: text("path").notNull(),
    description: text("description"),
    inputSchema: text("input_schema", { mode: "json" }),
    outputSchema: text("output_schema", { mode: "json" }),
    annotations: text("annotations", { mode: "json" }),
    /** what the source's plugin calls the tool with (seams.ts DiscoveredTool.binding); NULL: nothing */
    binding: text("binding", { mode: "json" }),
    resultEncoding: text("result_encoding"),
    syncedAt: integer("synced_at").notNull(),
  },
  (t) => [uniqueIndex("tools_path_unique").on(t.path), uniqueIndex("tools_source_name_unique").on(t.sourceId, t.name)],
)

/**
 * Schemas a source's tools share (seams.ts Discovery.definitions: an OpenAPI spec's component schemas), one row
 * each, stored once rather than copied into every tool row that reaches them; replaced with the tools at each sync.
 */
export const sourceDefinitions = sqliteTable(
  "source_definitions",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    schema: text("schema", { mode: "json" }).notNull(),
    syncedAt: integer("synced_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.name] })],
)

export const toolShapes = sqliteTable(
  "tool_shapes",
  {
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "cascade" }),
    encoding: text("encoding").notNull(),
    shape: text("shape", { mode: "json" }).notNull(),
    sampleCount: integer("sample_count").notNull(),
    firstSeenAt: integer("first_seen_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.encoding] })],
)

export const executions = sqliteTable(
  "executions",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    status: text("status").notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    resultText: text("result_text"),
    /**
     * result_text's length in UTF-16 code units (a JS string's length), the parts' together where it is stored in
     * parts: written with the text, so a listing need not read it (catalog/execution-rows.ts). NULL: no result,
     * or a row written before this column (a listing then measures the text in SQL).
     */
    resultChars: integer("result_chars"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    logs: text("logs", { mode: "json" }),
    toolCallCount: integer("tool_call_count").notNull(),
    /** the API key that made it (api_keys.id); NULL when made without one (loopback, `switchboard run`) or before keys were recorded */
    keyId: text("key_id"),
    /**
     * Kept at least until then (epoch ms), whatever the retention: set when the answer cut the result and told the
     * model to read the rest with read_output. NULL: no hold.
     */
    keepUntil: integer("keep_until"),
  },
  (t) => [
    // retention reads the oldest first, and finds the newest N's edge, in this order (catalog/prune.ts)
    index("executions_started_at_idx").on(t.startedAt, t.id),
    // a listing by key or by status reads only that key's or status's rows, newest first from the index: without
    // them a key owning few executions walked every other row, on SQLite on the main thread (execution-rows.ts)
    index("executions_key_id_idx").on(t.keyId, t.id),
    index("executions_status_idx").on(t.status, t.id),
    // a listing by error code reads only that code's rows, newest first; only failed executions have an entry, so
    // recording one that succeeded costs this index nothing
    index("executions_error_code_idx").on(t.errorCode, t.id).where(sql`${t.errorCode} is not null`),
  ],
)

/**
 * A stored result text too large for one row of the dialect (D1 caps a row at 2,000,000 bytes), in parts of at
 * most the dialect's allowance, in order from `seq` 0; the executions row then holds "" as its result_text.
 * The text is the parts joined (catalog/result-parts.ts).
 */
export const executionResultParts = sqliteTable(
  "execution_result_parts",
  {
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.executionId, t.seq] })],
)

export const toolCalls = sqliteTable(
  "tool_calls",
  {
    id: text("id").primaryKey(),
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.id, { onDelete: "cascade" }),
    toolPath: text("tool_path").notNull(),
    encoding: text("encoding").notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    errorCode: text("error_code"),
    dataBytes: integer("data_bytes"),
    outputSchemaError: text("output_schema_error"),
    /**
     * the called tool's namespace (the path before its first dot), so a listing by source walks this index; NULL
     * only for a path with no namespace
     */
    namespace: text("namespace"),
  },
  (t) => [
    index("tool_calls_execution_idx").on(t.executionId),
    // the executions that called a source, newest first (execution-listing.ts)
    index("tool_calls_namespace_idx").on(t.namespace, t.executionId),
  ],
)

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  hash: text("hash").notNull().unique(),
  scopes: text("scopes", { mode: "json" }).notNull(),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
})

/** Policy rules (catalog/rows.ts PolicyRow): a null pattern, source or annotation matches anything. */
export const policies = sqliteTable("policies", {
  id: text("id").primaryKey(),
  pattern: text("pattern"),
  source: text("source"),
  annotation: text("annotation"),
  /** allow | require_approval | block */
  action: text("action").notNull(),
  reason: text("reason"),
  /** api | config: a config rule is replaced whole each time the config file is applied */
  origin: text("origin").notNull(),
  createdAt: integer("created_at").notNull(),
})

/**
 * Paused calls awaiting a decision, with what their execution needs to resume by replay (catalog/rows.ts
 * ApprovalRow). `args` and `replay` are JSON read back exactly as written (on Postgres text too, not `jsonb`: see
 * schema-pg.ts). `rule_id` has no foreign key: a rule may be deleted, or replaced with the config, while its
 * approval waits.
 */
export const approvals = sqliteTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.id, { onDelete: "cascade" }),
    toolPath: text("tool_path").notNull(),
    /** NULL: a call made without arguments */
    args: text("args", { mode: "json" }),
    reason: text("reason").notNull(),
    ruleId: text("rule_id"),
    /** pending | approved | declined | expired */
    status: text("status").notNull(),
    note: text("note"),
    keyId: text("key_id"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    decidedAt: integer("decided_at"),
    decidedBy: text("decided_by"),
    resumeLeaseUntil: integer("resume_lease_until"),
    resumePastPauseAt: integer("resume_past_pause_at"),
    resumedAt: integer("resumed_at"),
    replay: text("replay", { mode: "json" }).notNull(),
  },
  (t) => [
    // listing by status, newest first (catalog/approval-rows.ts)
    index("approvals_status_idx").on(t.status, t.createdAt),
    // the resumes not yet recorded, oldest first (claimResumes): rows leave this range once resumed
    index("approvals_resume_idx").on(t.resumedAt, t.createdAt),
    // an execution's approvals: its delete (retention) finds them by it
    index("approvals_execution_idx").on(t.executionId),
  ],
)

/**
 * A source's OAuth grant (oauth/): the authorization server it was granted by, the client it used, its tokens
 * (sealed, oauth/token-vault.ts) and the refresh in progress. `generation` grows with every write of the tokens: a
 * refresh is claimed compare-and-set on it (with a lease), so two servers of one catalog never both spend a rotating
 * refresh token (catalog/oauth-rows.ts). One row per source that has logged in; none before.
 */
export const sourceAuth = sqliteTable("source_auth", {
  sourceId: text("source_id")
    .primaryKey()
    .references(() => sources.id, { onDelete: "cascade" }),
  /** connected | expired (a refresh failed for good, or the grant was revoked: a new login is needed) */
  status: text("status").notNull(),
  issuer: text("issuer").notNull(),
  /** the authorization server's metadata as discovered (public: endpoints and what it supports) */
  server: text("server", { mode: "json" }).notNull(),
  /** the resource indicator (RFC 8707) the tokens were asked for */
  resource: text("resource"),
  clientId: text("client_id").notNull(),
  /** client_secret_basic | client_secret_post | none */
  clientAuth: text("client_auth").notNull(),
  /** sealed; NULL for a public client */
  clientSecret: text("client_secret"),
  /** authorization_code | client_credentials */
  grant: text("grant").notNull(),
  /** sealed; NULL once expired */
  accessToken: text("access_token"),
  /** sealed; NULL when none was issued, or once expired */
  refreshToken: text("refresh_token"),
  /** epoch ms; NULL: the server gave no lifetime */
  expiresAt: integer("expires_at"),
  /** the scopes granted, space-separated */
  scopes: text("scopes"),
  generation: integer("generation").notNull(),
  /** while a server refreshes the tokens: until when it holds the refresh, and who it is */
  refreshLeaseUntil: integer("refresh_lease_until"),
  refreshLeaseOwner: text("refresh_lease_owner"),
  /** the API key that logged in; NULL without keys */
  connectedBy: text("connected_by"),
  /** why the grant expired, for people: never a token */
  error: text("error"),
  updatedAt: integer("updated_at").notNull(),
})

/**
 * Clients this server registered with an authorization server for a source (RFC 7591), one per redirect URI:
 * the server's own callback, a CLI's loopback. The secret, when the server issued one, is sealed.
 */
export const oauthClients = sqliteTable(
  "oauth_clients",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    clientId: text("client_id").notNull(),
    clientAuth: text("client_auth").notNull(),
    clientSecret: text("client_secret"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.issuer, t.redirectUri] })],
)

/**
 * Logins in progress: one row per `state` handed out, stored as the state's SHA-256 (the state itself is only in
 * the authorization URL). Taken once (`used_at`), within `expires_at`, for the source and the key that began it.
 */
export const oauthStates = sqliteTable(
  "oauth_states",
  {
    id: text("id").primaryKey(),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    /** the API key that began the login; NULL without keys */
    keyId: text("key_id"),
    redirectUri: text("redirect_uri").notNull(),
    /** what the code exchange needs besides the verifier: issuer, server metadata, resource, scope, client (no secret) */
    request: text("request", { mode: "json" }).notNull(),
    /** the PKCE verifier, sealed */
    codeVerifier: text("code_verifier").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("oauth_states_expires_idx").on(t.expiresAt)],
)
