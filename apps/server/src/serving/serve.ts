/** Serves a host's app over HTTP on Node. */
import { serve } from "@hono/node-server"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createHost } from "../compose.js"
import { DEFAULT_CONNECTION_BOUNDS, guardConnections } from "./connection-guard.js"
import type { Host, HostOptions } from "../compose.js"
import { runtimeStarted } from "../layers/runtime.js"

export interface ServeOptions extends HostOptions {
  port?: number
  hostname?: string
  /**
   * open connections at most (default 1,000); past it a new connection takes the place of the one that has waited
   * longest for a request, or is closed at once when every one has a request in progress (./connection-guard.ts)
   */
  maxConnections?: number
  /** --max-connections-per-address: requests in progress from one client address at once (default 100) */
  maxConnectionsPerAddress?: number
  /** the time a new connection has to send its whole request line (default 3 s) */
  requestLineTimeoutMs?: number
  /** the time a client has to send its request headers (default 10 s) */
  headersTimeoutMs?: number
  /** the time a client has to send its whole request, body included (default 60 s) */
  requestTimeoutMs?: number
  /** --allow-private-sources: a server beyond loopback lets http sources reach private addresses after all */
  allowPrivateSources?: boolean
  /** runs once the host is built, before the port is opened (the config file's sources); a throw stops the start */
  beforeListen?: (host: Host) => Promise<void>
}

/**
 * Bounds on what slow or idle clients may hold: connections that trickle their headers would otherwise use up
 * the process's file descriptors. Node checks the two timeouts every `connectionsCheckingInterval`
 * (30 s by default, far past a 10 s timeout), so it is set to a second. The bounds on the number of connections,
 * overall and per client, are ./connection-guard.ts.
 */
const connectionBounds = (options: ServeOptions) => ({
  headersTimeout: options.headersTimeoutMs ?? 10_000,
  requestTimeout: options.requestTimeoutMs ?? 60_000,
  connectionsCheckingInterval: Math.min(1_000, options.headersTimeoutMs ?? 1_000),
  keepAliveTimeout: 5_000,
})

/** 127.0.0.0/8, ::1 and localhost: the only addresses where the API answers without a key. */
export const isLoopback = (hostname: string) =>
  /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "::1" || hostname === "[::1]" || hostname === "localhost"

export const startServer = async (options: ServeOptions) => {
  const hostname = options.hostname ?? "127.0.0.1"
  // ARCHITECTURE.md: safety: beyond loopback, every route but /healthz and /readyz requires a key
  const requireKey = options.requireKey || !isLoopback(hostname)
  // DNS rebinding: a loopback server without keys answers only to its loopback names (any port: it may be 0)
  const allowedHosts = requireKey ? undefined : [hostname, "localhost", "127.0.0.1", "::1"]
  // ARCHITECTURE.md: safety: beyond loopback, http sources may not reach loopback, private, link-local or metadata addresses
  const refusePrivateSources = options.refusePrivateSources ?? (!isLoopback(hostname) && !options.allowPrivateSources)
  // a server keeps metrics unless told not to (GET /metrics); the sandbox's threads load while it starts
  // listening, so /healthz answers before they are warm
  const host = await createHost({
    ...options,
    // loaded here, not in compose: only a server serves the console, and the other commands never load its text
    console: options.console ?? (await import("@switchboard/console/assets")).consoleAssets,
    metrics: options.metrics ?? true,
    requireKey,
    allowedHosts,
    refusePrivateSources,
    workersInBackground: true,
  })
  await options.beforeListen?.(host).catch(async (cause: unknown) => {
    await host.close()
    throw cause
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      { fetch: host.app.fetch, port: options.port ?? 4747, hostname, serverOptions: connectionBounds(options) },
      () => resolve(s),
    )
    // before the first connection: the port opens once this turn of the event loop is over
    guardConnections(s as Server, {
      maxConnections: options.maxConnections ?? DEFAULT_CONNECTION_BOUNDS.maxConnections,
      maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? DEFAULT_CONNECTION_BOUNDS.maxConnectionsPerAddress,
      requestLineTimeoutMs: options.requestLineTimeoutMs ?? DEFAULT_CONNECTION_BOUNDS.requestLineTimeoutMs,
    })
    s.once("error", reject)
  })
  const { port } = server.address() as AddressInfo
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
    })
    await host.close()
  }
  // resolves as before, with every worker loaded; a pool that cannot start stops the server as it always did
  await runtimeStarted(host.runtime).catch(async (cause: unknown) => {
    await close()
    throw cause
  })
  // prom-client (slow to load on this thread) once /healthz answers and the workers are up, not before the port opens:
  // the counts are kept meanwhile, and a scrape before then waits for it (metrics.ts)
  setImmediate(() =>
    host.metrics
      ?.load()
      .catch((cause: unknown) =>
        host.logger.warn("metrics: prom-client did not load; GET /metrics will try again", { error: String(cause) }),
      ),
  )
  return { host, url: `http://${hostname}:${port}`, close }
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>
