/**
 * MCP connections as scoped resources, one per source, shared by every execution and released after an
 * idle period or when the pool's scope closes. A connection whose transport closed (the server died) is
 * invalidated at once, so the next call reconnects instead of writing into a dead pipe.
 */
import { Context, Duration, Effect, Layer, RcMap } from "effect"
import type { Scope } from "effect"
import { connect, handshakeRetryable } from "./connection.js"
import type { ConnectAttemptFailed, ConnectPolicy, McpConnection } from "./connection.js"
import { ConnectFailed, type NotProcessed, isNotProcessed } from "./pool-errors.js"
import { findRefusal } from "./refusal.js"
import { findAuthNeeded } from "./oauth-fetch.js"
import { oauthOf } from "./oauth-source.js"
import { isUpstreamOverflow } from "./upstream-overflow.js"
import { errorText, stderrTail, upstreamMessage } from "./upstream-text.js"
import type { McpSourceConfig, McpTransportConfig } from "./config.js"

export { ConnectFailed, NotProcessed, isConnectFailed, isNotProcessed } from "./pool-errors.js"

export interface PoolOptions {
  policy: ConnectPolicy
  connectTimeoutMs: number
  idleTimeToLiveMs: number
  onToolsChanged: (sourceId: string) => void
}

export interface ConnectionPoolShape {
  /**
   * Runs `use` with the source's pooled connection, connecting first if needed. A `use` that fails with
   * `NotProcessed` (the upstream lost our session, or refused the connection) is run once more on a new one.
   */
  withConnection<A, E>(
    sourceId: string,
    config: McpSourceConfig,
    use: (connection: McpConnection) => Effect.Effect<A, E | NotProcessed>,
    /**
     * the source's namespace, which a login's message names (default: its id), and the source whose OAuth login it
     * uses (core's `SourceHandle.loginId`; default: its id)
     */
    who?: { namespace: string; loginId?: string },
  ): Effect.Effect<A, Exclude<E, NotProcessed> | ConnectFailed>
  /** Drops the source's connection (config changed, source removed, or it answered like a dead one). */
  release(sourceId: string): Effect.Effect<void>
}

const isAttemptFailure = (cause: unknown): cause is ConnectAttemptFailed =>
  typeof cause === "object" && cause !== null && (cause as { _tag?: unknown })._tag === "ConnectAttemptFailed"

const connectFailed = (config: McpSourceConfig | undefined, cause: unknown): ConnectFailed => {
  const refusal = findRefusal(cause)
  if (refusal) return new ConnectFailed({ message: refusal.message, refused: refusal.code, cause })
  const auth = findAuthNeeded(cause)
  if (auth)
    return new ConnectFailed({
      message: auth.message,
      auth: { code: auth.code, authRequired: auth.authRequired },
      cause,
    })
  const inner = isAttemptFailure(cause) ? cause.cause : cause
  const message = errorText(inner)
  const stderr = isAttemptFailure(cause) ? cause.stderr : ""
  return new ConnectFailed({
    message: upstreamMessage(config, stderr ? `${message} (stderr: ${stderrTail(stderr)})` : message),
    upstreamError: isUpstreamOverflow(inner),
    retryable: handshakeRetryable(inner),
    cause,
  })
}

/**
 * A transport config as a string that is the same for the same config whatever its keys' order: a config read
 * back from Postgres (jsonb orders keys its own way) must not look changed and cost a new connection.
 */
const sortedJson = (transport: unknown): string =>
  JSON.stringify(transport, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  )

/** every tool call asks: a config object read once per execution is keyed once */
const knownKeys = new WeakMap<object, string>()

const transportKey = (transport: McpTransportConfig): string => {
  let key = knownKeys.get(transport)
  if (key === undefined) knownKeys.set(transport, (key = sortedJson(transport)))
  return key
}

type Attempt<A> = { value: A } | { failed: ConnectFailed } | { lost: McpConnection; cause: unknown }

const make = Effect.fnUntraced(function* (options: PoolOptions) {
  const configs = new Map<string, McpSourceConfig>()
  const namespaces = new Map<string, { namespace: string; loginId?: string }>()
  /** the connection each source's RcMap entry holds now; a close of any other one must not touch the entry */
  const current = new Map<string, McpConnection>()
  /**
   * the transport config each source's connection was made with: a config changed by a PATCH (on this server
   * or another sharing the catalog) gets a new connection, never the old credentials
   */
  const connectedWith = new Map<string, string>()
  /** sources whose connection closed by itself; the next call drops the entry before asking the map */
  const died = new Set<string>()

  const lookup = (sourceId: string) =>
    Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const config = configs.get(sourceId)
          if (!config) throw new Error(`no config for source ${sourceId}`)
          let self: McpConnection | undefined
          // the transport closed by itself: the entry is dropped at the next call (the map is not ours to touch here)
          const onClose = () => {
            if (self === undefined || current.get(sourceId) !== self) return
            current.delete(sourceId)
            died.add(sourceId)
          }
          const made = transportKey(config.transport)
          const oauth = oauthOf(config)
          const who = namespaces.get(sourceId)
          self = await connect(
            config.transport,
            { onClose, onToolsChanged: () => options.onToolsChanged(sourceId) },
            options.connectTimeoutMs,
            options.policy,
            oauth ? { id: who?.loginId ?? sourceId, namespace: who?.namespace ?? sourceId, oauth } : undefined,
          )
          current.set(sourceId, self)
          connectedWith.set(sourceId, made)
          return self
        },
        catch: (cause) => connectFailed(configs.get(sourceId), cause),
      }),
      (connection) =>
        Effect.promise(() => {
          if (current.get(sourceId) === connection) current.delete(sourceId)
          return connection.close()
        }),
    )

  const map = yield* RcMap.make({ lookup, idleTimeToLive: Duration.millis(options.idleTimeToLiveMs) })

  /** Drops `connection` if it is still the source's; a successor some other call already made is kept. */
  const drop = (sourceId: string, connection: McpConnection) =>
    current.get(sourceId) === connection
      ? Effect.suspend(() => {
          current.delete(sourceId)
          return RcMap.invalidate(map, sourceId)
        })
      : Effect.void

  const attempt = <A, E>(
    sourceId: string,
    use: (connection: McpConnection) => Effect.Effect<A, E | NotProcessed>,
  ): Effect.Effect<Attempt<A>, Exclude<E, NotProcessed>> =>
    Effect.scoped(
      Effect.flatMap(RcMap.get(map, sourceId), (connection) =>
        use(connection).pipe(
          Effect.map((value): Attempt<A> => ({ value })),
          Effect.catchIf(isNotProcessed, (lost) => Effect.succeed<Attempt<A>>({ lost: connection, cause: lost.cause })),
        ),
      ),
    ).pipe(
      Effect.catchIf(
        (error): error is ConnectFailed => (error as { _tag?: unknown })._tag === "ConnectFailed",
        (failed) => Effect.succeed<Attempt<A>>({ failed }),
      ),
    ) as Effect.Effect<Attempt<A>, Exclude<E, NotProcessed>>

  const withConnection = <A, E>(
    sourceId: string,
    config: McpSourceConfig,
    use: (connection: McpConnection) => Effect.Effect<A, E | NotProcessed>,
    who?: { namespace: string; loginId?: string },
  ): Effect.Effect<A, Exclude<E, NotProcessed> | ConnectFailed> =>
    Effect.gen(function* () {
      configs.set(sourceId, config)
      if (who !== undefined) namespaces.set(sourceId, who)
      const made = connectedWith.get(sourceId)
      if (died.delete(sourceId) || (made !== undefined && made !== transportKey(config.transport))) {
        // calls already running on the old connection finish on it; it closes when they end
        connectedWith.delete(sourceId)
        current.delete(sourceId)
        yield* RcMap.invalidate(map, sourceId)
      }
      // A restarted upstream (a lost session, a handshake answered 5xx) gets one more try on a new connection.
      for (let tries = 1; ; tries++) {
        const outcome = yield* attempt(sourceId, use)
        if ("value" in outcome) return outcome.value
        if ("failed" in outcome) {
          // RcMap keeps a failed lookup like a live one, for its idle time: forget it, so the next call connects anew
          if (!current.has(sourceId)) yield* RcMap.invalidate(map, sourceId)
          if (tries === 2 || !outcome.failed.retryable) return yield* outcome.failed
          continue
        }
        yield* drop(sourceId, outcome.lost)
        if (tries === 2)
          return yield* new ConnectFailed({
            message: upstreamMessage(
              config,
              `the request was not taken on a new session either: ${errorText(outcome.cause)}`,
            ),
            cause: outcome.cause,
          })
      }
    })

  const release = (sourceId: string) =>
    Effect.suspend(() => {
      current.delete(sourceId)
      connectedWith.delete(sourceId)
      died.delete(sourceId)
      namespaces.delete(sourceId)
      return RcMap.invalidate(map, sourceId)
    })

  return ConnectionPool.of({ withConnection, release })
})

/** The pool as a service: `make` in a scope of the caller's, `layer` for a host; closing the scope closes every connection. */
export class ConnectionPool extends Context.Service<ConnectionPool, ConnectionPoolShape>()(
  "@switchboard/plugin-mcp/ConnectionPool",
) {
  static readonly make: (options: PoolOptions) => Effect.Effect<ConnectionPoolShape, never, Scope.Scope> = make
  static readonly layer = (options: PoolOptions): Layer.Layer<ConnectionPool> =>
    Layer.effect(ConnectionPool, make(options))
}
