/** The SourcePlugin for MCP servers: discovery through `tools/list`, calls through `tools/call`, pooled connections. */
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { ResultEncodings, Services, ToolErrorCodes } from "@switchboard/core"
import type { RawInvokeResult, SourceCredentials, SourceHandle, SourcePlugin } from "@switchboard/core"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { checkConfig, mergeConfig } from "./config.js"
import type { ConfigCheck } from "./config.js"
import { mcpConfigView } from "./config-view.js"
import type { McpSourceConfig } from "./config.js"
import type { McpConnection } from "./connection.js"
import { anyMcpSourcePatch, mcpSourceConfig } from "./config-schema.js"
import { listAllTools } from "./discover.js"
import { callTool } from "./invoke.js"
import { ConnectionPool } from "./pool.js"
import type { ConnectFailed } from "./pool.js"
import { NotProcessed, RequestFailed, isNotProcessed } from "./pool-errors.js"
import { allowsAnyStdio } from "./connection.js"
import type { StdioAllowance } from "./connection.js"
import { scrubResult } from "./scrub-result.js"
import { StdioPaths, StdioSpawner } from "./stdio-spawner.js"
import type { PinStdio, SpawnStdio } from "./stdio-spawner.js"
import { findRefusal } from "./refusal.js"
import { findAuthNeeded } from "./oauth-fetch.js"
import { errorText, stderrTail, upstreamMessage } from "./upstream-text.js"
import { isUpstreamOverflow } from "./upstream-overflow.js"

export interface McpPluginOptions {
  /**
   * stdio sources run a command on this host; off unless the operator enables them (checked at every connect).
   * A list of exact commands allows only those.
   */
  allowStdio?: StdioAllowance
  /**
   * The fetch every request to an http source goes through: the host's egress guard (`createGuardedFetch` from
   * `@switchboard/plugin-mcp/node` on Node). It throws a `SourceRefusal` to refuse an address. Default: global fetch.
   */
  fetch?: FetchLike
  /** the largest JSON response or stream event an http source may send; past it the call or sync fails (64 MiB) */
  maxUpstreamMessageBytes?: number
  /** keys and elements a tool result may hold; past it the call answers `tool_result_too_large` unread (50,000) */
  maxToolResultNodes?: number
  /** how this host starts stdio servers (`McpPlugin.layer` takes the StdioSpawner service instead); without one stdio sources are refused */
  spawnStdio?: SpawnStdio
  /**
   * how this host makes a stdio server's relative paths absolute and checks them when its source is added or changed
   * (`McpPlugin.layer` takes the StdioPaths service instead); only where stdio sources are allowed, so a host that
   * refuses them says nothing of its files
   */
  pinStdio?: PinStdio
  /** what this host says of a stdio source when it has no spawner (the Worker host: stdio cannot run on Workers) */
  stdioUnavailableMessage?: string
  /** the whole handshake (initialize and the initialized notification after it), 30 s by default */
  connectTimeoutMs?: number
  listTimeoutMs?: number
  /** how long an unused connection stays open */
  idleTimeToLiveMs?: number
  /** the server said its tool list changed (`notifications/tools/list_changed`) */
  onToolsChanged?: (sourceId: string) => void
  /**
   * core's OAuth credentials (`OAuth.createOAuthService(…).credentials`): an http source without a fixed
   * `authorization` header then logs in with OAuth (./oauth-fetch.ts). Without them, a 401 is an upstream error.
   */
  credentials?: SourceCredentials
}

const defaults = (options: McpPluginOptions) => ({
  allowStdio: options.allowStdio ?? false,
  connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
  listTimeoutMs: options.listTimeoutMs ?? 30_000,
  idleTimeToLiveMs: options.idleTimeToLiveMs ?? 10 * 60_000,
})

const poolOptions = (options: McpPluginOptions, onToolsChanged: (sourceId: string) => void) => {
  const { allowStdio, connectTimeoutMs, idleTimeToLiveMs } = defaults(options)
  const policy = {
    allowStdio,
    fetch: options.fetch,
    spawnStdio: options.spawnStdio,
    stdioUnavailableMessage: options.stdioUnavailableMessage,
    maxMessageBytes: options.maxUpstreamMessageBytes,
    maxToolResultNodes: options.maxToolResultNodes,
    credentials: options.credentials,
  }
  return { policy, connectTimeoutMs, idleTimeToLiveMs, onToolsChanged }
}

/** A request's rejection: NotProcessed goes back to the pool for one more try, anything else stays typed to the edge. */
const request = <A>(run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (cause) => (isNotProcessed(cause) ? cause : new RequestFailed({ cause })),
  })

/**
 * The plugin's edge: SourcePlugin is a Promise seam (the executor's per-call path runs no Effect of its own). A
 * RequestFailed is our defect and rejects, so the executor logs it with a correlation id, as any defect.
 */
const toPromise = <A>(effect: Effect.Effect<A, RequestFailed>): Promise<A> =>
  Effect.runPromise(Effect.catchTag(effect, "RequestFailed", (failed) => Effect.die(failed.cause)))

const callFailure = (source: SourceHandle, failed: ConnectFailed): RawInvokeResult => {
  if (failed.refused) return { ok: false, code: failed.refused, message: failed.message }
  // a login to make, or credentials that could not be had: not a source that failed to start
  if (failed.auth) return { ok: false, code: failed.auth.code, message: failed.message }
  const message = `could not connect to "${source.namespace}": ${failed.message}`
  return failed.upstreamError
    ? { ok: false, code: ToolErrorCodes.upstreamError, message, connectFailed: true }
    : { ok: false, code: ToolErrorCodes.upstreamUnavailable, message, retryable: true, connectFailed: true }
}

/** A stdio source's checked config with its paths made absolute by the host, when this host may start it. */
const pinnedConfig = (checked: ConfigCheck, { allowStdio, pinStdio }: McpPluginOptions): ConfigCheck => {
  if (!checked.ok || checked.config.transport.type !== "stdio" || !pinStdio || !allowsAnyStdio(allowStdio))
    return checked
  const pinned = pinStdio(checked.config.transport)
  return pinned.ok
    ? { ok: true, config: { ...checked.config, transport: pinned.server } }
    : { ok: false, reason: "invalid", message: pinned.message }
}

const make = Effect.fnUntraced(function* (options: McpPluginOptions) {
  const { listTimeoutMs } = defaults(options)
  const pool = yield* ConnectionPool
  const configOf = (source: SourceHandle) => source.config as McpSourceConfig

  const plugin: SourcePlugin = {
    ...mcpConfigView,
    configSchema: mcpSourceConfig,
    patchSchema: anyMcpSourcePatch,
    validateConfig: (config) => pinnedConfig(checkConfig(config), options),
    mergeConfig,

    discover(source, options) {
      const config = configOf(source)
      const listed = pool.withConnection(
        source.id,
        config,
        (connection) =>
          request(() =>
            listAllTools(connection, listTimeoutMs, options?.onProgress).then(
              (tools) => ({ ok: true as const, tools }),
              (cause) => {
                const refusal = findRefusal(cause)
                if (refusal) return { ok: false as const, message: refusal.message, refused: refusal.code }
                const auth = findAuthNeeded(cause)
                if (auth) return { ok: false as const, message: auth.message, authRequired: auth.authRequired }
                // tools/list changes nothing upstream: any lost request is sent again, once, on a new session
                if (connection.lossOf(cause) !== null) throw new NotProcessed({ cause })
                const stderr = connection.stderrTail()
                // a stdio flood closed the connection (the cause is its overflow), or an http answer passed the bound
                const overflow = connection.overflow() ?? (isUpstreamOverflow(cause) ? cause : undefined)
                const reason = overflow?.message ?? errorText(cause)
                return {
                  ok: false as const,
                  message: `tools/list failed: ${upstreamMessage(config, `${reason}${stderr ? ` (stderr: ${stderrTail(stderr)})` : ""}`)}`,
                  ...(overflow ? { upstreamError: true } : {}),
                }
              },
            ),
          ),
        source,
      )
      return toPromise(
        listed.pipe(
          Effect.map((outcome) => {
            if (!outcome.ok) return outcome
            // a description or schema may quote a secret too; names are kept, or the tool could not be called
            const tools = outcome.tools.map(({ name, ...rest }) => ({
              name,
              ...(scrubResult(config, rest) as typeof rest),
            }))
            return { ok: true as const, discovery: { tools, encoding: ResultEncodings.mcpCallToolResultV2 } }
          }),
          // ConnectFailed messages are scrubbed and cut where they are made (pool.ts)
          Effect.catchTag("ConnectFailed", (failed) =>
            Effect.succeed(
              failed.refused
                ? { ok: false as const, message: failed.message, refused: failed.refused }
                : failed.auth
                  ? { ok: false as const, message: failed.message, authRequired: failed.auth.authRequired }
                  : {
                      ok: false as const,
                      message: `could not connect: ${failed.message}`,
                      ...(failed.upstreamError ? { upstreamError: true } : {}),
                    },
            ),
          ),
        ),
      )
    },

    invoke(source, tool, args, ctx) {
      const config = configOf(source)
      // failures are scrubbed where they are made (invoke.ts); a result is the tool's data, scrubbed here
      const scrubbed = (outcome: RawInvokeResult): RawInvokeResult =>
        outcome.ok ? { ok: true, raw: scrubResult(config, outcome.raw) } : outcome
      const pooled = (lost?: McpConnection) =>
        toPromise(
          pool
            .withConnection(
              source.id,
              config,
              (connection) => request(() => callTool(connection, config, tool, args, ctx)),
              source,
              lost,
            )
            .pipe(
              Effect.map(scrubbed),
              Effect.catchTag("ConnectFailed", (failed) => Effect.succeed(callFailure(source, failed))),
            ),
        )
      // an open connection is called without Effect: this is every call's path once a source is connected
      const lease = pool.lease(source.id, config, source)
      if (lease === undefined) return pooled()
      return callTool(lease.connection, config, tool, args, ctx).then(
        (outcome) => {
          lease.done()
          return scrubbed(outcome)
        },
        (cause: unknown) => {
          lease.done()
          if (isNotProcessed(cause)) return pooled(lease.connection)
          throw cause
        },
      )
    },

    release: (sourceId) => Effect.runPromise(pool.release(sourceId)),
    // the pool's scope owns the connections: a host closes them by closing the layer
    close: async () => {},
  }
  return plugin
})

/**
 * The MCP plugin as a service: `make` needs a ConnectionPool; `layer` brings its own pool, which marks a source
 * stale in core's StaleSources when its server says its tool list changed, and starts stdio servers with the
 * host's StdioSpawner when it has one, their paths made absolute by its StdioPaths (the Node host's `nodeStdioLayer`).
 */
export class McpPlugin extends Context.Service<McpPlugin, SourcePlugin>()("@switchboard/plugin-mcp/McpPlugin") {
  static readonly make: (options: McpPluginOptions) => Effect.Effect<SourcePlugin, never, ConnectionPool> = make
  static readonly layer = (options: McpPluginOptions = {}): Layer.Layer<McpPlugin, never, Services.StaleSources> =>
    Layer.effect(
      McpPlugin,
      Effect.flatMap(Effect.serviceOption(StdioPaths), (paths) =>
        make({ ...options, pinStdio: Option.getOrUndefined(paths) ?? options.pinStdio }),
      ),
    ).pipe(
      Layer.provide(
        Layer.effect(
          ConnectionPool,
          Effect.gen(function* () {
            const stale = yield* Services.StaleSources
            const spawner = yield* Effect.serviceOption(StdioSpawner)
            const spawnStdio = Option.getOrUndefined(spawner) ?? options.spawnStdio
            return yield* ConnectionPool.make(
              poolOptions({ ...options, spawnStdio }, (id) => {
                stale.add(id)
                options.onToolsChanged?.(id)
              }),
            )
          }),
        ),
      ),
    )
}

/**
 * The plugin outside a host's layers (tests, benches): its pool lives in a scope of its own, which `close` closes.
 * On Node, `@switchboard/plugin-mcp/node` has the same with Node's stdio spawner.
 */
export const createMcpPlugin = async (options: McpPluginOptions = {}): Promise<SourcePlugin> => {
  const scope = Scope.makeUnsafe()
  const plugin = await Effect.runPromise(
    make(options).pipe(
      Effect.provideServiceEffect(
        ConnectionPool,
        ConnectionPool.make(poolOptions(options, (id) => options.onToolsChanged?.(id))),
      ),
      Scope.provide(scope),
    ),
  )
  return { ...plugin, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
