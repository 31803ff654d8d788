/**
 * The seams core declares and others implement (ARCHITECTURE.md: seams). core never imports an implementation.
 */
import type { z } from "zod"
import type { RenderOptions, RenderedResult } from "./render/render-result.js"
import type { ContentBlock, ToolResult } from "./result.js"
import type { OAuthSettings } from "./oauth/settings.js"

/** Limits for one execution. Every limit that trips names itself in the error code. */
export interface RunLimits {
  /** wall-clock time for the whole run, tool calls included: what a timeout names (RunOptions.deadline) */
  timeoutMs: number
  /** QuickJS heap limit */
  memoryBytes: number
  /** QuickJS stack limit */
  stackBytes: number
  /** tool calls per execution */
  maxToolCalls: number
  /** size of the result, as JSON text */
  maxResultBytes: number
  /**
   * keys and elements in the result: every pass over a value of hundreds of thousands (storing, rendering,
   * answering) would hold the server's main thread too long
   */
  maxResultNodes: number
  /** captured console lines */
  maxLogLines: number
  /** captured console bytes */
  maxLogBytes: number
  /** one tool call's path and arguments, as UTF-8 JSON text; past it the call resolves to `tool_arguments_too_large` */
  maxToolArgBytes: number
  /** the same, summed over the run's tool calls whose result has not yet reached the script */
  maxToolArgBytesInFlight: number
}

export interface LogEntry {
  level: "log" | "info" | "warn" | "error" | "debug"
  message: string
}

/** Codes a run can fail with. Each limit has its own, so a caller can tell them apart. */
export const RunErrorCodes = {
  syntaxError: "syntax_error",
  runtimeError: "runtime_error",
  timeout: "timeout",
  memoryLimit: "memory_limit",
  stackOverflow: "stack_overflow",
  toolCallLimit: "tool_call_limit",
  resultTooLarge: "result_too_large",
  resultNotSerializable: "result_not_serializable",
  neverSettled: "never_settled",
  aborted: "aborted",
  /**
   * not a failure: the run reached a call that needs a person's approval and is paused (executor.ts ExecuteResponse
   * `status: "paused"`); a resume carries it on
   */
  paused: "paused",
  /** a resumed run made another call (tool or arguments) than the record of its first run says: it cannot be resumed */
  replayDiverged: "replay_diverged",
  /**
   * a resume passed its pause (the approved call was made, or the declined one answered) on a server that did not
   * record its end: it is not run again, so that call is not made twice (executor.ts resume)
   */
  resumeInterrupted: "resume_interrupted",
  /** the key that made a paused run was revoked (or lost its execute scope) before the resume: it runs nothing */
  keyRevoked: "key_revoked",
  /** every sandbox is busy and the queue is full: the caller should retry after `retryAfterSeconds` */
  overloaded: "overloaded",
  internal: "internal_error",
} as const
export type RunErrorCode = (typeof RunErrorCodes)[keyof typeof RunErrorCodes]

export interface RunError {
  code: RunErrorCode
  message: string
  /** with `overloaded`: when a retry is likely to find room */
  retryAfterSeconds?: number
  /** 1-based position in the script as the user wrote it, when known */
  line?: number
  column?: number
}

export type RunOutcome =
  /**
   * `emitted`: content blocks the script passed to `emit(block)`, in order (images and audio for MCP clients);
   * `rendered`: `renderResult(value, options.render)`, when the runtime made it (off the main thread); with
   * `rendered.json`, `value` may be parsed from that text only when read (render/parse-on-read.ts)
   */
  | { ok: true; value: unknown; logs: LogEntry[]; emitted?: ContentBlock[]; rendered?: RenderedResult }
  | { ok: false; error: RunError; logs: LogEntry[] }

/**
 * The one door out of the sandbox. It never rejects for an expected failure. `clockReads`: with
 * `RunOptions.determinism`, the values the script's Date reads returned since its previous tool call (or its
 * start), in order; absent when there were none.
 */
export type InvokeTool = (path: string, args: unknown, clockReads?: readonly number[]) => Promise<ToolResult>

/** the most Date reads a run reports (`InvokeTool`'s `clockReads`, summed): past them reads go on, live and unreported */
export const MAX_CLOCK_READS = 100_000

/**
 * What makes a run repeatable, so a paused execution can be resumed by running its script again (executor/replay.ts):
 * the same seed gives the same Math.random values, and `clock` gives Date the values the first run saw.
 */
export interface RunDeterminism {
  /** Math.random's 64-bit state, as 16 hex digits, not all zero */
  seed: string
  /**
   * values the script's Date reads return first, in order (`Date.now()`, `new Date()` and `Date()` without
   * arguments); past them, the real clock
   */
  clock?: readonly number[]
}

export interface RunOptions {
  invoke: InvokeTool
  limits: RunLimits
  /**
   * When the run must end: epoch ms on the wall clock (`Date.now`), which a runtime's worker threads share. The
   * executor sets it once per execution, and every layer below reads it as it is: none recounts it, and a timeout
   * still names `limits.timeoutMs`. Without it, a runtime counts `limits.timeoutMs` from when it takes the run.
   */
  deadline?: number
  signal?: AbortSignal
  /** how the caller renders the result: a runtime that can do it off the main thread returns it as `rendered` */
  render?: RenderOptions
  /** seed Math.random and replay Date, and report Date reads to `invoke` */
  determinism?: RunDeterminism
}

/** Runs one script. The script is the body of an async function; its `return` value is the result. */
export interface CodeRuntime {
  run(code: string, options: RunOptions): Promise<RunOutcome>
}

/** A tool as a source reports it, before the catalog stores it. */
export interface DiscoveredTool {
  /** exact upstream name, case kept */
  name: string
  description: string | null
  inputSchema: unknown
  /** the output schema as declared; null when absent or unusable */
  outputSchema: unknown | null
  annotations: unknown | null
  /**
   * what the plugin needs to call the tool (an OpenAPI operation's method, path and parameter styles): stored with
   * the row and handed back with each call as `InvokeContext.binding`, so a call needs no discovery. Opaque to core.
   */
  binding?: unknown
}

export interface Discovery {
  tools: DiscoveredTool[]
  /** the encoding every discovered tool is stamped with */
  encoding: string
  /**
   * Schemas the tools' schemas share, by name: stored once per source (not in each tool row), and a tool schema's
   * `#/$defs/<name>` reads from them; the store gives a tool back with the definitions it reaches as its `$defs`.
   */
  definitions?: Record<string, unknown>
}

/** How far a discovery has got: pages of the server's listing read, and the tools found in them so far. */
export interface DiscoveryProgress {
  pages: number
  tools: number
}

export interface DiscoverOptions {
  /** called after each page of the listing is read; a listing sent again (a lost session) starts from page 1 */
  onProgress?: (progress: DiscoveryProgress) => void
}

/** Who a source's config is shown to: an admin, or anyone else who may list sources (a `read` key). */
export type ConfigViewer = "admin" | "reader"

/** What a source row gives a plugin: its namespace and its stored config (secrets included; never echoed). */
export interface SourceHandle {
  id: string
  namespace: string
  kind: string
  config: unknown
  /**
   * the source whose OAuth login calls through this handle use (its grant), when it is not `id`: a PATCH's trial
   * runs under an id of its own, with its source's login unless the PATCH drops it
   */
  loginId?: string
}

/**
 * What a plugin's call is given besides its arguments. `deadline`: when the call must end, epoch ms on the wall
 * clock (`Date.now`): the execution's own deadline (RunOptions.deadline), as it is; a plugin whose client takes a
 * duration counts it from the deadline as it hands the call over. `signal`: aborted when the execution ends first.
 */
export interface InvokeContext {
  signal?: AbortSignal
  deadline: number
  /** the tool row's binding, as the plugin discovered it (`DiscoveredTool.binding`); absent for a row without one */
  binding?: unknown
}

/**
 * A plugin's raw result: either a value to decode under the row's encoding, or a failure the plugin
 * already knows how to name (unreachable upstream, timeout, unknown tool upstream). `connectFailed`: the source
 * could not be started or reached at all (not a refusal, not a call that failed upstream); core records the message
 * as the source's sync error, so its status says so.
 */
export type RawInvokeResult =
  /** `meta`: what a `direct` result carries beside its data (an HTTP answer's status and headers) */
  | { ok: true; raw: unknown; meta?: unknown }
  | {
      ok: false
      code: string
      message: string
      retryable?: boolean
      unknownTool?: boolean
      connectFailed?: boolean
      /** the error's structured part, for `error.data` (an HTTP error's parsed JSON body) */
      data?: unknown
    }

/**
 * Why a plugin refused to start or reach a source: this server's configuration forbids it, not the source.
 * The same code is a tool call's `error.code` and the API's 403 `error.code` for an add or a sync.
 */
export const SourceRefusalCodes = {
  /** stdio sources run a command on the host; this server was started without --allow-stdio */
  sourceDisabled: "source_disabled",
  /** the source resolves to a loopback, private, link-local or metadata address, which this server refuses */
  privateAddress: "private_address",
  /**
   * a stdio source's env sets a variable that makes its command load code (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH…),
   * and this server was started without --allow-stdio-code-env
   */
  codeLoadingEnv: "code_loading_env",
} as const
export type SourceRefusalCode = (typeof SourceRefusalCodes)[keyof typeof SourceRefusalCodes]

/**
 * A discovery that failed: `refused` when this server will not start or reach the source (nothing was attempted
 * upstream); `upstreamError` when the server was reached and misbehaved (broke a bound of what it may send), not absent;
 * `authRequired` when the source wants an OAuth login (none made yet, or it expired): the message says how to log in.
 */
export type DiscoveryFailure = {
  ok: false
  message: string
  refused?: SourceRefusalCode
  upstreamError?: boolean
  authRequired?: AuthFailureCode
}

/** Why a source's OAuth credentials cannot be had: no login yet (`auth_required`), or it is gone (`auth_expired`). */
export type AuthFailureCode = "auth_required" | "auth_expired"

/**
 * A source that may log in with OAuth, as its plugin describes it (`SourcePlugin.oauth`): the protected resource it
 * calls, which is also the resource indicator (RFC 8707), and the operator's settings from the source's `auth`
 * (oauth/settings.ts), in plaintext.
 */
export interface OAuthSource {
  /**
   * the resource indicator sent with every request (RFC 8707), and, without `endpoints`, where discovery starts
   * (MCP: the source's URL); null: none is sent
   */
  resource: string | null
  settings: OAuthSettings
  /**
   * The authorization server's endpoints as the source declares them itself (an OpenAPI spec's oauth2 flow, with the
   * operator's overrides), instead of discovery from `resource`: read when a login begins or a first client-credentials
   * token is asked for. It rejects with an Error whose message is for people: with `upstream: true` when the source
   * could not be read (its spec not fetched), a SourceRefusal for an address this host refuses, else because the
   * source declares no such server.
   */
  endpoints?: () => Promise<OAuthEndpoints>
}

/** Where a source that declares its authorization server logs in (`OAuthSource.endpoints`). */
export interface OAuthEndpoints {
  /** the authorization code flow's page; absent for a source that declares client credentials only */
  authorizationUrl?: string
  tokenUrl: string
  /** the scopes the source's operations ask for, asked for unless the operator's `auth.scopes` says otherwise */
  scopes: string[]
  /** the scopes the source says its server offers (offline_access among them: a refresh token is asked for) */
  offered: string[]
}

/** The source a plugin asks credentials for. */
export interface CredentialSubject {
  id: string
  namespace: string
  oauth: OAuthSource
}

/**
 * What core answers a plugin asking for a source's credentials: the `Authorization` header value to send (`null`:
 * none, the source has not asked for a login), or why there is none. `code` is a tool call's error code as it is:
 * `auth_required`, `auth_expired`, or what reaching the authorization server failed with (`private_address`,
 * `upstream_unavailable`).
 */
export type CredentialAnswer =
  | { ok: true; authorization: string | null }
  | { ok: false; code: string; message: string; authRequired?: AuthFailureCode }

/**
 * OAuth credentials, which core keeps for the plugins (oauth/credentials.ts): discovery, login, refresh and sealed
 * storage live once. A plugin asks before each request to a source its `oauth` describes, and tells when the
 * source answered 401 to what it sent; it sends the request again once with a header that differs.
 */
export interface SourceCredentials {
  authorization(subject: CredentialSubject): Promise<CredentialAnswer>
  /** `sent`: the header the refused request carried; `challenge`: the 401's `WWW-Authenticate` */
  rejected(subject: CredentialSubject, sent: string | null, challenge: string | null): Promise<CredentialAnswer>
}

export interface SourcePlugin {
  readonly kind: string
  /**
   * The body fields a source of this kind takes besides `namespace` and `kind` (MCP: `transport`): the schema
   * `validateConfig` checks with, which the API's OpenAPI document shows as this kind's part of POST /v1/sources.
   */
  readonly configSchema?: z.ZodObject
  /** The body of a PATCH of such a source, the schema `mergeConfig` checks with, for the OpenAPI document. */
  readonly patchSchema?: z.ZodType
  /** Checks a source config from the API; returns a user-facing message when it is wrong. */
  validateConfig(
    config: unknown,
  ): { ok: true; config: unknown } | { ok: false; reason: "invalid" | "forbidden"; message: string }
  /**
   * The config with every secret value replaced, fit to show in an API response. `viewer`: `admin` (the default)
   * sees every field; `reader` (a key without admin, listing sources) sees less where the plugin cannot tell every
   * secret apart (MCP: no arguments of a stdio source).
   */
  redactConfig(config: unknown, viewer?: ConfigViewer): unknown
  /**
   * Where the secrets are in a config: the paths of its secret string values (`["transport", "env", "TOKEN"]`).
   * Core encrypts the values at these paths before a config is stored and decrypts them when it is read, so
   * it must answer the same paths for a config whose values are sealed (`enc:v1:…`) as for the plaintext one.
   * A plugin without it has no secrets.
   */
  secretFields?(config: unknown): string[][]
  /**
   * The config a `PATCH` of `patch` onto `current` makes, unchecked (core passes it to `validateConfig`
   * next), or why the patch is not allowed. `dropped`: the stored secrets the patch took away because it sends
   * the source elsewhere without sending them again (`transport.headers.authorization`), for the answer to name.
   * `loginMoved`: the patch changes who the source logs in with OAuth as, or where (its client, its grant, its
   * authorization server or resource), so core drops its stored login (tokens issued to another client or for
   * another resource are not sent on). A plugin without it has no fields that can be replaced.
   */
  mergeConfig?(
    current: unknown,
    patch: unknown,
  ): { ok: true; config: unknown; dropped?: string[]; loginMoved?: boolean } | { ok: false; message: string }
  /**
   * Whether the source may log in with OAuth (an http source without a fixed `authorization` header), and its
   * settings: core then keeps its credentials (SourceCredentials) and its login (`POST /v1/sources/:ns/login`).
   * Null or absent: it never logs in.
   */
  oauth?(config: unknown): OAuthSource | null
  discover(
    source: SourceHandle,
    options?: DiscoverOptions,
  ): Promise<{ ok: true; discovery: Discovery } | DiscoveryFailure>
  invoke(source: SourceHandle, tool: string, args: unknown, ctx: InvokeContext): Promise<RawInvokeResult>
  /** Called when a source changes or goes away, so pooled connections are dropped. */
  release(sourceId: string): Promise<void>
  /** Called when the host shuts down. */
  close(): Promise<void>
}

export interface ToolCallRecord {
  executionId: string
  toolPath: string
  encoding: string
  startedAt: number
  durationMs: number
  ok: boolean
  errorCode: string | null
  dataBytes: number | null
  /** set when the decoded data did not match the tool's declared output schema (it was delivered anyway) */
  outputSchemaError?: string | null
}

export interface ExecutionRecord {
  id: string
  code: string
  /** `paused`: waiting for an approval (catalog/rows.ts ApprovalRow); a resume overwrites it with the end */
  status: "ok" | "error" | "paused"
  startedAt: number
  durationMs: number
  resultText: string | null
  errorCode: string | null
  errorMessage: string | null
  logs: LogEntry[]
  toolCallCount: number
  /** the API key that made it; null without one (a server without keys, `switchboard run`). Only admin reads another key's. */
  keyId: string | null
  /**
   * The store keeps it at least until then (epoch ms), past any retention: set when the answer cut the result and
   * pointed the model at read_output (executor.ts). Null: no hold.
   */
  keepUntil: number | null
}

/** One execution and all of its tool calls: what one execute writes. */
export interface ExecutionEntry {
  execution: ExecutionRecord
  calls: ToolCallRecord[]
}

/**
 * Where execution records go. `recordBatch` writes every entry it is given, each execution with all of its
 * tool calls, in one atomic batch: all of them commit or none does, and it resolves only once they have
 * committed. The executor does not call it once per execution: `createGroupCommit`
 * (executor/group-commit.ts) gathers the records of executions that finish together into one call, and each
 * execute answers only after the batch holding its own record has committed, so a response never names a
 * record that is not stored. A batch that fails fails every execute in it (each logs it and still answers, with
 * `stored: false` and no `executionId`).
 */
export interface TelemetrySink {
  recordBatch(entries: readonly ExecutionEntry[]): Promise<void>
}

/**
 * Counts of what the server did, for a host's metrics (the Node host serves them at /metrics). Called on the
 * path it counts, synchronously, once per event: an implementation must be cheap and must not throw. The default,
 * `noopMetrics`, counts nothing (the Worker host, the CLI).
 */
export interface MetricsSink {
  /** an execution ran to its end (`errorCode`: the run's, when it failed), before its record is written */
  executionEnded(status: "ok" | "error", errorCode: string | null, durationMs: number): void
  /** an execution was refused before it started: every sandbox busy and the queue full (HTTP 429, MCP `overloaded`) */
  executionRejected(): void
  /**
   * a tool call returned to its script, or ended after its execution did. Positional, as `executionEnded` is: one
   * call per tool call allocates nothing. `source`: the namespace of the catalog source the call resolved to, null
   * when it resolved to none (an unknown tool, `$describe`); `upstreamMs`: milliseconds spent in the source's
   * plugin, null when the call never reached one.
   */
  toolCallEnded(source: string | null, ok: boolean, errorCode: string | null, upstreamMs: number | null): void
  /** a sync of a stored source (asked for, lazy or after a PATCH) ended */
  syncEnded(namespace: string, ok: boolean): void
}

export const noopMetrics: MetricsSink = {
  executionEnded() {},
  executionRejected() {},
  toolCallEnded() {},
  syncEnded() {},
}
