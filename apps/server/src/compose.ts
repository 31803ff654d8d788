/**
 * Composition for the Node host: a merge of layers (secret box, SQLite or Postgres catalog, the stdio transport, the
 * MCP plugin and its connection pool, the QuickJS worker pool, core services, the grep worker) and the hono app on
 * top. This is the only place the packages meet.
 * The database, the MCP connections, the worker pool and the grep worker are scoped resources: each is released
 * in reverse order of acquisition when the host closes, and also when a later step of its start fails.
 */
import { Clock, Effect, Layer, ManagedRuntime } from "effect"
import { appServices, createApp } from "@switchboard/api"
import type { ConsoleAssets } from "@switchboard/api"
import { Services } from "@switchboard/core"
import type { CodeRuntime, Logger, RunLimits } from "@switchboard/core"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { nodeStdioLayer } from "@switchboard/plugin-mcp/node"
import type { GuardedFetchOptions } from "@switchboard/plugin-mcp/node"
import { createStderrLogger } from "./logging/logger.js"
import type { LogFormat, LogLevel } from "./logging/logger.js"
import { CatalogDatabase } from "./layers/database.js"
import { GrepRunner } from "./layers/grep.js"
import { HostMetrics, metricsLayer } from "./layers/metrics.js"
import { pluginsLayer } from "./layers/plugins.js"
import { retentionLayer } from "./layers/retention.js"
import { approvalSweepLayer } from "./layers/approvals.js"
import type { RetentionOptions } from "./layers/retention.js"
import { runtimeLayer } from "./layers/runtime.js"
import { SecretBox, sealedCatalogLayer } from "./layers/secrets.js"
import { tracingLayer } from "./layers/tracing.js"
import { startFailure } from "./layers/start-failed.js"

export interface HostOptions {
  /** the web console's files, served at `/` (`switchboard serve` passes them; the CLI's other commands serve nothing) */
  console?: ConsoleAssets
  /** path of the SQLite file, or a postgres:// URL */
  db: string
  /** stdio sources run a command on this host: true allows any, a list only those exact commands (demo) */
  allowStdio?: StdioAllowance
  /**
   * http sources may not reach loopback, private, link-local or metadata addresses (checked after DNS resolution
   * and on every redirect). The server sets it when it listens beyond loopback, unless --allow-private-sources.
   * An object configures the guard (tests inject a resolver).
   */
  refusePrivateSources?: boolean | GuardedFetchOptions
  /**
   * SQLite: how long a write waits, in all, for another connection's lock on the file before it fails (default
   * 5 s). The wait never blocks the event loop; an execute whose record failed says so (`stored: false`).
   */
  busyWaitMs?: number
  /** re-sync a source's catalog when it is older than this (default 15 minutes) */
  syncTtlMs?: number
  /** keys and elements one tool result may hold (default 50,000); past it the call answers `tool_result_too_large` */
  maxToolResultNodes?: number
  /** the server's limits; a request may lower them, never raise them */
  limits?: Partial<RunLimits>
  /**
   * Where scripts run. "pool" (the default): worker threads, hard-killed at the deadline; the main thread
   * never runs guest code. "in-thread": one QuickJS module on the main thread, with no hard CPU bound (for
   * tests and bench baselines, or a command that runs no script). Or any CodeRuntime.
   */
  runtime?: "pool" | "in-thread" | CodeRuntime
  /** worker threads of the pool (default: the CPU count, at least 2) */
  workers?: number
  /** executions waiting for a worker before the pool answers `overloaded` (default 64, at least 8 per worker) */
  queue?: number
  /**
   * The host is built while the pool's threads load (a run waits in the pool's queue for the first);
   * `runtimeStarted(host.runtime)` settles when they have, or rejects with why they could not (default false:
   * the host is built with its pool warm). `startServer` sets it, to listen meanwhile.
   */
  workersInBackground?: boolean
  /** every route but /healthz and /readyz needs an API key (set by the server once it listens beyond loopback) */
  requireKey?: boolean
  /** Host header values the API answers to (DNS rebinding); the server sets it for a loopback listener without keys */
  allowedHosts?: string[]
  /**
   * --public-url: the base URL people reach the server at behind a proxy (the app's `publicUrl`): the OAuth callback
   * and the console's links are built from it; unset, from the address each request reached
   */
  publicUrl?: string
  /** largest request body on /v1 and /mcp, in bytes (default 10 MiB) */
  maxBodyBytes?: number
  /** downloads of stored output one key may have in progress at once (default 8; the app's `maxDownloadsPerKey`) */
  maxDownloadsPerKey?: number
  /** the longest one search of stored output may run before it answers `pattern_too_costly` (default 2 s) */
  grepTimeoutMs?: number
  /**
   * The key that encrypts source secrets at rest: 32 bytes, base64 or base64url (default: SWITCHBOARD_SECRET_KEY;
   * without it, a key file beside a SQLite database, made 0600 on first start; a Postgres catalog requires one).
   */
  secretKey?: string
  /** where log lines go (default: pino on stderr at `logLevel` in `logFormat`, logging/logger.ts); request lines too */
  logger?: Logger
  /** the least level logged (default `info`, which has a line per request); ignored with `logger` */
  logLevel?: LogLevel
  /** `json` (default) or `pretty`; ignored with `logger` */
  logFormat?: LogFormat
  /**
   * Keep Prometheus metrics and serve them at GET /metrics (admin scope when keys are on). `startServer` turns it
   * on; the CLI's commands leave it off.
   */
  metrics?: boolean
  /**
   * Execution records past an age and/or beyond the newest N are pruned in the background, a minute after start
   * and every 10 minutes (`everyMs`); one whose output a model was told to read stays an hour at least (layers/retention.ts).
   * Default: none, every execution is kept.
   */
  retain?: RetentionOptions
  /** false: approvals are off, for trusted local use (what would need one is allowed; `block` still blocks) */
  approvals?: boolean
  /** how long a paused call waits for a person before it counts as declined (default an hour) */
  approvalTtlMs?: number
  /**
   * how often this host takes on resumes that are due (expired approvals, resumes a server left), in ms (default
   * 10 s); null: never (a CLI command, which lives too briefly to resume anything)
   */
  approvalSweepMs?: number | null
  /** false: a resume replays Math.random but not Date (for the test that shows what replaying Date is for) */
  replayClock?: boolean
  /** the host's time (Effect's Clock): catalog TTLs, records and timings; tests pass a `TestClock` */
  clock?: Clock.Clock
}

/**
 * Every service of the Node host. Each `provideMerge` builds what it is given before what it is applied to, so
 * the resources are acquired from the bottom up (the key first: a malformed one, or a Postgres catalog without
 * one, stops the start before anything is opened) and released from the top down.
 */
export const hostLayer = (options: HostOptions) =>
  (options.approvalSweepMs === null ? Layer.empty : approvalSweepLayer(options.approvalSweepMs ?? undefined)).pipe(
    Layer.provideMerge(Layer.mergeAll(GrepRunner.layer(options.grepTimeoutMs), retentionLayer(options.retain))),
    Layer.provideMerge(
      Services.coreLayer({
        executor: { limits: options.limits, approvalTtlMs: options.approvalTtlMs, replayClock: options.replayClock },
        policies: { approvals: options.approvals },
        sources: { syncTtlMs: options.syncTtlMs },
      }),
    ),
    Layer.provideMerge(metricsLayer(options.metrics ?? false)),
    Layer.provideMerge(runtimeLayer(options)),
    Layer.provideMerge(sealedCatalogLayer),
    Layer.provideMerge(pluginsLayer(options)),
    Layer.provideMerge(nodeStdioLayer),
    Layer.provideMerge(CatalogDatabase.layer(options.db, { busyWaitMs: options.busyWaitMs })),
    Layer.provideMerge(SecretBox.layer(options.db, options.secretKey)),
    // registered before anything makes a span, shut down after all of it has closed
    Layer.provideMerge(tracingLayer()),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.succeed(
          Services.Logger,
          options.logger ?? createStderrLogger({ level: options.logLevel, format: options.logFormat }),
        ),
        Services.StaleSources.layer,
        options.clock ? Layer.succeed(Clock.Clock, options.clock) : Layer.empty,
      ),
    ),
  )

export type HostServices = Layer.Success<ReturnType<typeof hostLayer>>

const services = Effect.gen(function* () {
  return {
    ...(yield* appServices),
    runtime: yield* Services.CodeRuntime,
    grep: yield* GrepRunner,
    metrics: yield* HostMetrics,
  }
})

/** The Node host's own way to manage keys, named by the 401 and by /v1/keys on a server without keys. */
export const NODE_KEYS_HINT =
  "On the host: `switchboard keys create <name> --scope <scope>` (also `keys list`, `keys revoke <id>`)."

/**
 * Builds a host from its layer, for the server and the CLI, which speak promises: the layer's resources live in a
 * ManagedRuntime until `close`. A start that fails releases what it had acquired before it rethrows.
 */
export const buildHost = async <E>(
  layer: Layer.Layer<HostServices, E>,
  options: Pick<
    HostOptions,
    "requireKey" | "allowedHosts" | "maxBodyBytes" | "maxDownloadsPerKey" | "console" | "publicUrl"
  > = {},
) => {
  const runtime = ManagedRuntime.make(layer)
  const built = await runtime.runPromise(services).catch(async (cause: unknown) => {
    await runtime.dispose()
    throw startFailure(cause)
  })
  const { logger, metrics } = built
  const app = createApp(
    { ...built, keys: options.requireKey ? built.keys : undefined },
    {
      allowedHosts: options.allowedHosts,
      maxBodyBytes: options.maxBodyBytes,
      maxDownloadsPerKey: options.maxDownloadsPerKey,
      keysHint: NODE_KEYS_HINT,
      console: options.console,
      publicUrl: options.publicUrl,
      // a line per request, at info; and each counted by route and status
      requestLog: metrics
        ? (entry) => {
            logger.info("request", entry)
            metrics.request(entry)
          }
        : (entry) => logger.info("request", entry),
      metrics: metrics?.render,
    },
  )
  return { ...built, app, close: () => runtime.dispose() }
}

export const createHost = (options: HostOptions) => buildHost(hostLayer(options), options)

export type Host = Awaited<ReturnType<typeof createHost>>
