/**
 * MCP connections as scoped resources, one per source, shared by every execution and released after an
 * idle period. A connection whose transport closed (the server died) is invalidated at once, so the next
 * call reconnects instead of writing into a dead pipe.
 */
import { Duration, Effect, Exit, RcMap, Scope } from "effect"
import { connect } from "./connection.js"
import type { McpConnection } from "./connection.js"
import type { McpSourceConfig } from "./config.js"

export class ConnectFailed {
  readonly _tag = "ConnectFailed"
  constructor(readonly message: string) {}
}

export interface PoolOptions {
  connectTimeoutMs: number
  idleTimeToLiveMs: number
  onToolsChanged: (sourceId: string) => void
}

export interface ConnectionPool {
  /** Runs `use` with the source's pooled connection, connecting first if needed. */
  withConnection<A>(sourceId: string, config: McpSourceConfig, use: (connection: McpConnection) => Promise<A>): Promise<A | ConnectFailed>
  /** Drops the source's connection (config changed, source removed, or it answered like a dead one). */
  release(sourceId: string): Promise<void>
  close(): Promise<void>
}

const describeConnectError = (cause: unknown, connection?: { stderr: string }) => {
  const message = cause instanceof Error ? cause.message : String(cause)
  return connection?.stderr ? `${message} (stderr: ${connection.stderr})` : message
}

export const createConnectionPool = async (options: PoolOptions): Promise<ConnectionPool> => {
  const configs = new Map<string, McpSourceConfig>()
  const scope = await Effect.runPromise(Scope.make())
  let map: RcMap.RcMap<string, McpConnection, ConnectFailed>

  const lookup = (sourceId: string) =>
    Effect.acquireRelease(
      Effect.tryPromise({
        try: () => {
          const config = configs.get(sourceId)
          if (!config) return Promise.reject(new Error(`no config for source ${sourceId}`))
          return connect(
            config.transport,
            {
              onClose: () => void Effect.runFork(RcMap.invalidate(map, sourceId)),
              onToolsChanged: () => options.onToolsChanged(sourceId),
            },
            options.connectTimeoutMs,
          )
        },
        catch: (cause) => new ConnectFailed(describeConnectError(cause)),
      }),
      (connection) => Effect.promise(() => connection.close()),
    )

  map = await Effect.runPromise(
    RcMap.make({ lookup, idleTimeToLive: Duration.millis(options.idleTimeToLiveMs) }).pipe(Scope.provide(scope)),
  )

  return {
    withConnection: (sourceId, config, use) => {
      configs.set(sourceId, config)
      return Effect.runPromise(
        Effect.scoped(
          RcMap.get(map, sourceId).pipe(
            Effect.flatMap((connection) => Effect.promise(() => use(connection))),
            Effect.catchTag("ConnectFailed", (failed) => Effect.succeed(failed)),
          ),
        ),
      )
    },
    release: (sourceId) => Effect.runPromise(RcMap.invalidate(map, sourceId)),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}
