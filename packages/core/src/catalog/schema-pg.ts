/**
 * The catalog schema for Postgres: the same tables, columns and meaning as ./schema-sqlite.ts
 * (a test fails when they drift). Times are epoch milliseconds in bigint; JSON columns are jsonb, save the two an
 * approval reads back exactly (`jsonText`).
 */
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core"
import { sql } from "drizzle-orm"

const millis = (name: string) => bigint(name, { mode: "number" })

/**
 * JSON kept as its text, read back exactly as written: `jsonb` reorders an object's keys and refuses `\u0000` in a
 * string, and drizzle's `json` parses again a string the driver already parsed (the JSON string "123" reads back as
 * the number 123). SQLite's `text(…, { mode: "json" })` is the same thing.
 */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (text) => JSON.parse(text),
})

export const sources = pgTable("sources", {
  id: text("id").primaryKey(),
  namespace: text("namespace").notNull().unique(),
  kind: text("kind").notNull(),
  config: jsonb("config").notNull(),
  status: text("status").notNull(),
  lastSyncedAt: millis("last_synced_at"),
  syncError: text("sync_error"),
  createdAt: millis("created_at").notNull(),
  updatedAt: millis("updated_at").notNull(),
})

export const tools = pgTable(
  "tools",
  {
    id: text("id").primaryKey(),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    path: text("path").notNull(),
    description: text("description"),
    inputSchema: jsonb("input_schema"),
    outputSchema: jsonb("output_schema"),
    annotations: jsonb("annotations"),
    binding: jsonb("binding"),
    resultEncoding: text("result_encoding"),
    syncedAt: millis("synced_at").notNull(),
  },
  (t) => [uniqueIndex("tools_path_unique").on(t.path), uniqueIndex("tools_source_name_unique").on(t.sourceId, t.name)],
)

/** Schemas a source's tools share, stored once (see schema-sqlite.ts). */
export const sourceDefinitions = pgTable(
  "source_definitions",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    schema: jsonb("schema").notNull(),
    syncedAt: millis("synced_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.name] })],
)

export const toolShapes = pgTable(
  "tool_shapes",
  {
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "cascade" }),
    encoding: text("encoding").notNull(),
    shape: jsonb("shape").notNull(),
    sampleCount: bigint("sample_count", { mode: "number" }).notNull(),
    firstSeenAt: millis("first_seen_at").notNull(),
    lastSeenAt: millis("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.encoding] })],
)

export const executions = pgTable(
  "executions",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    status: text("status").notNull(),
    startedAt: millis("started_at").notNull(),
    durationMs: bigint("duration_ms", { mode: "number" }).notNull(),
    resultText: text("result_text"),
    /** result_text's length in UTF-16 code units (see schema-sqlite.ts) */
    resultChars: integer("result_chars"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    logs: jsonb("logs"),
    toolCallCount: bigint("tool_call_count", { mode: "number" }).notNull(),
    /** the API key that made it (api_keys.id); NULL when made without one (loopback, `switchboard run`) or before keys were recorded */
    keyId: text("key_id"),
    /** kept at least until then, whatever the retention (see schema-sqlite.ts) */
    keepUntil: millis("keep_until"),
  },
  (t) => [
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
export const executionResultParts = pgTable(
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

export const toolCalls = pgTable(
  "tool_calls",
  {
    id: text("id").primaryKey(),
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.id, { onDelete: "cascade" }),
    toolPath: text("tool_path").notNull(),
    encoding: text("encoding").notNull(),
    startedAt: millis("started_at").notNull(),
    durationMs: bigint("duration_ms", { mode: "number" }).notNull(),
    ok: boolean("ok").notNull(),
    errorCode: text("error_code"),
    dataBytes: bigint("data_bytes", { mode: "number" }),
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

export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  hash: text("hash").notNull().unique(),
  scopes: jsonb("scopes").notNull(),
  createdAt: millis("created_at").notNull(),
  revokedAt: millis("revoked_at"),
})

/** Policy rules (see schema-sqlite.ts). */
export const policies = pgTable("policies", {
  id: text("id").primaryKey(),
  pattern: text("pattern"),
  source: text("source"),
  annotation: text("annotation"),
  action: text("action").notNull(),
  reason: text("reason"),
  origin: text("origin").notNull(),
  createdAt: millis("created_at").notNull(),
})

/**
 * Paused calls awaiting a decision (see schema-sqlite.ts). `args` and `replay` are JSON text, not `jsonb`: a resume
 * gives the script the tool results recorded in `replay`, which must read back exactly as the first run saw them.
 */
export const approvals = pgTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    executionId: text("execution_id")
      .notNull()
      .references(() => executions.id, { onDelete: "cascade" }),
    toolPath: text("tool_path").notNull(),
    args: jsonText("args"),
    reason: text("reason").notNull(),
    ruleId: text("rule_id"),
    status: text("status").notNull(),
    note: text("note"),
    keyId: text("key_id"),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    decidedAt: millis("decided_at"),
    decidedBy: text("decided_by"),
    resumeLeaseUntil: millis("resume_lease_until"),
    resumePastPauseAt: millis("resume_past_pause_at"),
    resumedAt: millis("resumed_at"),
    replay: jsonText("replay").notNull(),
  },
  (t) => [
    index("approvals_status_idx").on(t.status, t.createdAt),
    index("approvals_resume_idx").on(t.resumedAt, t.createdAt),
    index("approvals_execution_idx").on(t.executionId),
  ],
)

export const sourceAuth = pgTable("source_auth", {
  sourceId: text("source_id")
    .primaryKey()
    .references(() => sources.id, { onDelete: "cascade" }),
  status: text("status").notNull(),
  issuer: text("issuer").notNull(),
  server: jsonText("server").notNull(),
  resource: text("resource"),
  clientId: text("client_id").notNull(),
  clientAuth: text("client_auth").notNull(),
  clientSecret: text("client_secret"),
  grant: text("grant").notNull(),
  accessToken: text("access_token"),
  refreshToken: text("refresh_token"),
  expiresAt: millis("expires_at"),
  scopes: text("scopes"),
  generation: integer("generation").notNull(),
  refreshLeaseUntil: millis("refresh_lease_until"),
  refreshLeaseOwner: text("refresh_lease_owner"),
  connectedBy: text("connected_by"),
  error: text("error"),
  updatedAt: millis("updated_at").notNull(),
})

export const oauthClients = pgTable(
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
    createdAt: millis("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.issuer, t.redirectUri] })],
)

export const oauthStates = pgTable(
  "oauth_states",
  {
    id: text("id").primaryKey(),
    sourceId: text("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    keyId: text("key_id"),
    redirectUri: text("redirect_uri").notNull(),
    request: jsonText("request").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    usedAt: millis("used_at"),
  },
  (t) => [index("oauth_states_expires_idx").on(t.expiresAt)],
)
