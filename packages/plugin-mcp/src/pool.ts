/**
 * MCP connections as scoped resources, one per source, shared by every execution and released after an
 * idle period. A connection whose transport closed (the server died) is invalidated at once, so the next
 * call reconnects instead of writing into a dead pipe.
 */
import { Data, Duration, Effect, Exit, RcMap, Scope } from "effect"
import type { SourceRefusalCode } from "@switchboard/core"
import { connect, handshakeRetryable } from "./connection.js"
import type { ConnectAttemptFailed, ConnectPolicy, McpConnection } from "./connection.js"
import { findRefusal } from "./refusal.js"
import { isStdoutOverflow } from "./stdout-reader.js"
import { errorText, stderrTail, upstreamMessage } from "./upstream-text.js"
import type { McpSourceConfig, McpTransportConfig } from "./config.js"

/**
 * The source could not be connected to; `message` is already scrubbed of the source's secrets and cut (upstream
 * text). `refused` when this server would not start or reach it at all.
 */
export class ConnectFailed extends Data.TaggedError("ConnectFailed")<{
  message: string
  refused?: SourceRefusalCode
  /** the server broke a bound of what it may send (a stdout flood): its fault, not its absence (`upstream_error`) */
  upstreamError?: boolean
  /** an HTTP handshake that failed in a way a restarting server fails (5xx, no connection): one more try is made */
  retryable?: boolean
  cause?: unknown
}> {}

/**
 * Thrown by a `use` for a request the upstream did not process (it lost our session, or refused the connection):
 * the pool drops the connection and runs `use` once more on a new one.
 */
export class NotProcessed extends Data.TaggedError("NotProcessed")<{ cause: unknown }> {}

const isNotProcessed = (value: unknown): value is NotProcessed =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "NotProcessed"

/** A tag check rather than `instanceof`, which fails when this package is bundled twice (STYLE §9). */
export const isConnectFailed = (value: unknown): value is ConnectFailed =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "ConnectFailed"

export interface PoolOptions {
  policy: ConnectPolicy
  connectTimeoutMs: number
  idleTimeToLiveMs: number
  onToolsChanged: (sourceId: string) => void
}

export interface ConnectionPool {
  /** Runs `use` with the source's pooled connection, connecting first if needed. */
  withConnection<A>(
    sourceId: string,
    config: McpSourceConfig,
    use: (connection: McpConnection) => Promise<A>,
  ): Promise<A | ConnectFailed>
  /** Drops the source's connection (config changed, source removed, or it answered like a dead one). */
  release(sourceId: string): Promise<void>
  close(): Promise<void>
}

const isAttemptFailure = (cause: unknown): cause is ConnectAttemptFailed =>
  typeof cause === "object" && cause !== null && (cause as { _tag?: unknown })._tag === "ConnectAttemptFailed"

const connectFailed = (config: McpSourceConfig | undefined, cause: unknown): ConnectFailed => {
  const refusal = findRefusal(cause)
  if (refusal) return new ConnectFailed({ message: refusal.message, refused: refusal.code, cause })
  const inner = isAttemptFailure(cause) ? cause.cause : cause
  const message = errorText(inner)
  const stderr = isAttemptFailure(cause) ? cause.stderr : ""
  return new ConnectFailed({
    message: upstreamMessage(config, stderr ? `${message} (stderr: ${stderrTail(stderr)})` : message),
    upstreamError: isStdoutOverflow(inner),
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

export const createConnectionPool = async (options: PoolOptions): Promise<ConnectionPool> => {
  const configs = new Map<string, McpSourceConfig>()
  /** the connection each source's RcMap entry holds now; a close of any other one must not touch the entry */
  const current = new Map<string, McpConnection>()
  /**
   * the transport config each source's connection was made with: a config changed by a PATCH (on this server
   * or another sharing the catalog) gets a new connection, never the old credentials
   */
  const connectedWith = new Map<string, string>()
  const scope = await Effect.runPromise(Scope.make())
  let map: RcMap.RcMap<string, McpConnection, ConnectFailed>

  const lookup = (sourceId: string) =>
    Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const config = configs.get(sourceId)
          if (!config) throw new Error(`no config for source ${sourceId}`)
          let self: McpConnection | undefined
          const onClose = () => {
            if (self === undefined || current.get(sourceId) !== self) return
            current.delete(sourceId)
            void Effect.runFork(RcMap.invalidate(map, sourceId))
          }
          const made = transportKey(config.transport)
          self = await connect(
            config.transport,
            { onClose, onToolsChanged: () => options.onToolsChanged(sourceId) },
            options.connectTimeoutMs,
            options.policy,
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

  map = await Effect.runPromise(
    RcMap.make({ lookup, idleTimeToLive: Duration.millis(options.idleTimeToLiveMs) }).pipe(Scope.provide(scope)),
  )

  /** Drops `connection` if it is still the source's; a successor some other call already made is kept. */
  const drop = async (sourceId: string, connection: McpConnection) => {
    if (current.get(sourceId) !== connection) return
    current.delete(sourceId)
    await Effect.runPromise(RcMap.invalidate(map, sourceId))
  }

  return {
    withConnection: async (sourceId, config, use) => {
      configs.set(sourceId, config)
      const made = connectedWith.get(sourceId)
      if (made !== undefined && made !== transportKey(config.transport)) {
        // calls already running on the old connection finish on it; it closes when they end
        connectedWith.delete(sourceId)
        current.delete(sourceId)
        await Effect.runPromise(RcMap.invalidate(map, sourceId))
      }
      const attempt = () =>
        Effect.runPromise(
          Effect.scoped(
            RcMap.get(map, sourceId).pipe(
              Effect.flatMap((connection) =>
                Effect.promise(() =>
                  use(connection).then(
                    (value) => ({ value }),
                    (cause: unknown) => {
                      if (!isNotProcessed(cause)) throw cause
                      return { lost: connection, cause: cause.cause }
                    },
                  ),
                ),
              ),
              Effect.catchTag("ConnectFailed", (failed) => Effect.succeed({ failed })),
            ),
          ),
        )
      // A restarted upstream (a lost session, a handshake answered 5xx) gets one more try on a new connection.
      for (let tries = 1; ; tries++) {
        const outcome = await attempt()
        if ("value" in outcome) return outcome.value
        if ("failed" in outcome) {
          // RcMap keeps a failed lookup like a live one, for its idle time: forget it, so the next call connects anew
          if (!current.has(sourceId)) await Effect.runPromise(RcMap.invalidate(map, sourceId))
          if (tries === 2 || !outcome.failed.retryable) return outcome.failed
          continue
        }
        await drop(sourceId, outcome.lost)
        if (tries === 2)
          return new ConnectFailed({
            message: upstreamMessage(
              config,
              `the request was not taken on a new session either: ${errorText(outcome.cause)}`,
            ),
            cause: outcome.cause,
          })
      }
    },
    release: (sourceId) => {
      current.delete(sourceId)
      connectedWith.delete(sourceId)
      return Effect.runPromise(RcMap.invalidate(map, sourceId))
    },
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}
