/**
 * MCP connections as scoped resources, one per source, shared by every execution and released after an
 * idle period or when the pool's scope closes. A connection whose transport closed (the server died) is
 * invalidated at once, so the next call reconnects instead of writing into a dead pipe.
 *
 * Once a source's connection is open, the pool holds a reference to it (`Held`), and a call takes it with
 * `lease`, a plain function: the per-call path runs no Effect. The hold is what keeps an idle connection
 * open; the map releases a connection as soon as nothing holds it.
 */
import { Context, Effect, Exit, Layer, RcMap, Scope } from "effect"
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
    /** a lease's connection did not take the request (`NotProcessed`): it is dropped, and one try is left */
    lost?: McpConnection,
  ): Effect.Effect<A, Exclude<E, NotProcessed> | ConnectFailed>
  /**
   * The source's open connection, for one call made without Effect, or undefined when it has none (not yet
   * connected, closed, or made with another transport config): then `withConnection`. The caller ends the
   * lease with `done`; a request it did not take (`NotProcessed`) goes to `withConnection` with `lost`.
   */
  lease(sourceId: string, config: McpSourceConfig, who?: { namespace: string; loginId?: string }): Lease | undefined
  /** Drops the source's connection (config changed, source removed, or it answered like a dead one). */
  release(sourceId: string): Effect.Effect<void>
}

export interface Lease {
  readonly connection: McpConnection
  /** the call ended */
  done(): void
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

/** a source's open connection, held by the pool between calls so that `lease` can hand it out without Effect */
interface Held {
  readonly connection: McpConnection
  /** holds the map's reference to the connection; closing it lets the map close the connection */
  readonly scope: Scope.Closeable
  /** leases not yet ended: a hold taken away (`takeHold`) keeps its connection open until they end */
  users: number
  /** closes the hold after the idle time, while no lease is out */
  idle: ReturnType<typeof setTimeout> | undefined
}

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

  // the hold keeps a connection for its idle time (Held): the map closes one nothing holds at once
  const map = yield* RcMap.make({ lookup })

  const held = new Map<string, Held>()
  /**
   * Takes the source's hold away at once (only the one on `connection`, when given), so no new lease gets it; the
   * effect returned closes it, at once or when its last lease ends: calls finish on the connection they started on.
   * Run it after the map's entry is invalidated, so the map closes the connection rather than keeping it idle.
   */
  const takeHold = (sourceId: string, connection?: McpConnection): Effect.Effect<void> => {
    const hold = held.get(sourceId)
    if (hold === undefined || (connection !== undefined && hold.connection !== connection)) return Effect.void
    held.delete(sourceId)
    if (hold.idle !== undefined) clearTimeout(hold.idle)
    return hold.users === 0 ? Scope.close(hold.scope, Exit.void) : Effect.void
  }
  const idleAfterLastLease = (sourceId: string, hold: Held) => {
    hold.idle = setTimeout(() => {
      hold.idle = undefined
      Effect.runFork(takeHold(sourceId, hold.connection))
    }, options.idleTimeToLiveMs)
    // an idle connection must not keep the process alive (Workers' timers have no unref)
    ;(hold.idle as { unref?: () => void }).unref?.()
  }
  /** After a call on `connection`: holds it when it is the source's open connection and nothing holds it yet. */
  const hold = (sourceId: string, connection: McpConnection): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (held.get(sourceId)?.connection === connection || current.get(sourceId) !== connection) return Effect.void
      const scope = Scope.makeUnsafe()
      return Effect.flatMap(Effect.exit(Scope.provide(RcMap.get(map, sourceId), scope)), (got) => {
        // the connection was replaced or dropped meanwhile: nothing to hold
        if (
          Exit.isFailure(got) ||
          got.value !== connection ||
          held.has(sourceId) ||
          current.get(sourceId) !== connection
        )
          return Scope.close(scope, Exit.void)
        const entry: Held = { connection, scope, users: 0, idle: undefined }
        held.set(sourceId, entry)
        idleAfterLastLease(sourceId, entry)
        return Effect.void
      })
    })
  // the pool's scope closes every connection through the map (its finalizer runs after this one)
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      for (const hold of held.values()) if (hold.idle !== undefined) clearTimeout(hold.idle)
      held.clear()
    }),
  )

  /** Drops `connection` if it is still the source's; a successor some other call already made is kept. */
  const drop = (sourceId: string, connection: McpConnection) =>
    current.get(sourceId) === connection
      ? Effect.suspend(() => {
          current.delete(sourceId)
          return Effect.andThen(RcMap.invalidate(map, sourceId), takeHold(sourceId, connection))
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
          Effect.ensuring(hold(sourceId, connection)),
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
    lost?: McpConnection,
  ): Effect.Effect<A, Exclude<E, NotProcessed> | ConnectFailed> =>
    Effect.gen(function* () {
      configs.set(sourceId, config)
      if (who !== undefined) namespaces.set(sourceId, who)
      const made = connectedWith.get(sourceId)
      if (died.delete(sourceId) || (made !== undefined && made !== transportKey(config.transport))) {
        // calls already running on the old connection finish on it; it closes when they end
        connectedWith.delete(sourceId)
        current.delete(sourceId)
        const closing = takeHold(sourceId)
        yield* RcMap.invalidate(map, sourceId)
        yield* closing
      }
      if (lost !== undefined) yield* drop(sourceId, lost)
      // A restarted upstream (a lost session, a handshake answered 5xx) gets one more try on a new connection.
      for (let tries = lost === undefined ? 1 : 2; ; tries++) {
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

  const lease = (
    sourceId: string,
    config: McpSourceConfig,
    who?: { namespace: string; loginId?: string },
  ): Lease | undefined => {
    const hold = held.get(sourceId)
    // a connection that closed by itself is no longer `current`; one made with another config is for withConnection
    if (hold === undefined || current.get(sourceId) !== hold.connection || !hold.connection.isOpen()) return undefined
    if (connectedWith.get(sourceId) !== transportKey(config.transport)) return undefined
    configs.set(sourceId, config)
    if (who !== undefined) namespaces.set(sourceId, who)
    hold.users++
    if (hold.idle !== undefined) {
      clearTimeout(hold.idle)
      hold.idle = undefined
    }
    let ended = false
    return {
      connection: hold.connection,
      done: () => {
        if (ended) return
        ended = true
        if (--hold.users > 0) return
        // taken away meanwhile: its last lease closes it
        if (held.get(sourceId) !== hold) Effect.runFork(Scope.close(hold.scope, Exit.void))
        else idleAfterLastLease(sourceId, hold)
      },
    }
  }

  const release = (sourceId: string) =>
    Effect.suspend(() => {
      current.delete(sourceId)
      connectedWith.delete(sourceId)
      died.delete(sourceId)
      namespaces.delete(sourceId)
      return Effect.andThen(RcMap.invalidate(map, sourceId), takeHold(sourceId))
    })

  return ConnectionPool.of({ withConnection, lease, release })
})

/** The pool as a service: `make` in a scope of the caller's, `layer` for a host; closing the scope closes every connection. */
export class ConnectionPool extends Context.Service<ConnectionPool, ConnectionPoolShape>()(
  "@switchboard/plugin-mcp/ConnectionPool",
) {
  static readonly make: (options: PoolOptions) => Effect.Effect<ConnectionPoolShape, never, Scope.Scope> = make
  static readonly layer = (options: PoolOptions): Layer.Layer<ConnectionPool> =>
    Layer.effect(ConnectionPool, make(options))
}
