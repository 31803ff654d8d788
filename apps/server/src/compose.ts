/**
 * Composition for the Node host: SQLite or Postgres catalog, MCP plugin, QuickJS runtime, core services, hono app.
 * This is the only place the packages meet.
 */
import { createApp } from "@switchboard/api"
import {
  createApiKeyService,
  createExecutor,
  createSealedCatalogStore,
  createSecretBox,
  createSourcesService,
  defaultLimits,
} from "@switchboard/core"
import type { CodeRuntime, Logger, RunLimits } from "@switchboard/core"
import { createMcpPlugin } from "@switchboard/plugin-mcp"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { createGuardedFetch } from "@switchboard/plugin-mcp/node"
import type { GuardedFetchOptions } from "@switchboard/plugin-mcp/node"
import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import { createWorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"
import { createStderrLogger } from "./logger.js"
import { openCatalogDatabase } from "./catalog-database.js"
import { createGrepRunner } from "./grep/grep-runner.js"
import { loadSecretKey } from "./secret-key.js"

export interface HostOptions {
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
  /** every route but /healthz needs an API key (set by the server once it listens beyond loopback) */
  requireKey?: boolean
  /** Host header values the API answers to (DNS rebinding); the server sets it for a loopback listener without keys */
  allowedHosts?: string[]
  /** largest request body on /v1 and /mcp, in bytes (default 10 MiB) */
  maxBodyBytes?: number
  /** the longest one search of stored output may run before it answers `pattern_too_costly` (default 2 s) */
  grepTimeoutMs?: number
  /**
   * The key that encrypts source secrets at rest: 32 bytes, base64 or base64url (default: SWITCHBOARD_SECRET_KEY;
   * without it, a key file beside a SQLite database, made 0600 on first start; a Postgres catalog requires one).
   */
  secretKey?: string
  logger?: Logger
}

/** Each worker's WebAssembly memory ceiling: twice the QuickJS limit, room for the module's own 16 MiB. */
const wasmCeiling = (limits: RunLimits) => Math.max(64 << 20, 2 * limits.memoryBytes)

const createRuntime = async (options: HostOptions): Promise<CodeRuntime & { close?: () => Promise<void> }> => {
  const runtime = options.runtime ?? "pool"
  const limits: RunLimits = { ...defaultLimits, ...options.limits }
  if (runtime === "in-thread") return createQuickJsRuntime({ memoryCapBytes: wasmCeiling(limits) })
  if (runtime !== "pool") return runtime
  // each worker keeps a copy of its run's log as large as the server's log limits, for runs it is killed in
  return createWorkerPoolRuntime({
    size: options.workers,
    queueLimit: options.queue,
    memoryCapBytes: wasmCeiling(limits),
    logLimits: limits,
  })
}

export const createHost = async (options: HostOptions) => {
  const logger = options.logger ?? createStderrLogger()
  // the key first: a malformed one, or a Postgres catalog without one, stops the start before anything is opened
  const secretKey = loadSecretKey(options.db, options.secretKey)
  if (secretKey.created)
    logger.info(
      "created the key that encrypts source secrets; keep it with the database (losing it makes their secrets unreadable)",
      { keyFile: secretKey.created },
    )
  const box = await createSecretBox(secretKey.key)
  const database = await openCatalogDatabase(options.db, { busyWaitMs: options.busyWaitMs })
  // the plugin reports `tools/list_changed` before the sources service exists: bind late
  let onToolsChanged = (_sourceId: string) => {}
  const guard = options.refusePrivateSources
    ? createGuardedFetch(options.refusePrivateSources === true ? {} : options.refusePrivateSources)
    : undefined
  const mcp = await createMcpPlugin({
    allowStdio: options.allowStdio ?? false,
    fetch: guard,
    onToolsChanged: (id) => onToolsChanged(id),
  })
  const plugins = [mcp]
  // every part of the host reads sources through this store: plaintext in memory, sealed in the database
  const store = createSealedCatalogStore({ store: database.store, box, plugins })
  const { sealed, unreadable } = await store.sealStoredSecrets()
  if (sealed.length > 0) {
    database.checkpoint?.()
    logger.info("encrypted the secrets an older build stored in plaintext", { sources: sealed })
  }
  if (unreadable.length > 0) {
    logger.warn(
      `the secrets of ${unreadable.length} source(s) cannot be decrypted with this server's key (${secretKey.origin}, key id ${box.keyId}); their calls fail with source_secrets_unreadable until new secrets are sent with PATCH /v1/sources/<namespace> or the old key is restored`,
      {
        sources: unreadable.map((u) => u.namespace),
      },
    )
  }
  const runtime = await createRuntime(options)
  const sources = createSourcesService({ store, plugins, logger, syncTtlMs: options.syncTtlMs })
  onToolsChanged = sources.markStale
  const executor = createExecutor({ store, sources, runtime, plugins, logger, limits: options.limits })
  const keys = createApiKeyService(store)
  const search = createGrepRunner({ timeoutMs: options.grepTimeoutMs })
  const app = createApp(
    { sources, executor, store, logger, keys: options.requireKey ? keys : undefined, grep: search.grep },
    { allowedHosts: options.allowedHosts, maxBodyBytes: options.maxBodyBytes },
  )
  return {
    app,
    keys,
    store,
    sources,
    executor,
    logger,
    runtime,
    grep: search.grep,
    async close() {
      // a runtime the caller passed in is the caller's to close
      if (options.runtime === undefined || typeof options.runtime === "string") await runtime.close?.()
      await Promise.all([...plugins.map((p) => p.close()), search.close()])
      await guard?.close()
      await database.close()
    },
  }
}

export type Host = Awaited<ReturnType<typeof createHost>>
