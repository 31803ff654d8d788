/** Serves a host's app over HTTP on Node. */
import { serve } from "@hono/node-server"
import type { AddressInfo } from "node:net"
import { createHost } from "./compose.js"
import type { Host, HostOptions } from "./compose.js"
import { startTracing } from "./otlp-tracing.js"

export interface ServeOptions extends HostOptions {
  port?: number
  hostname?: string
  /** open connections at most; past it a new connection is closed at once (default 1,000) */
  maxConnections?: number
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
 * Bounds on what slow or idle clients may hold (issue 14 §6): 20,000 connections that trickled their headers
 * used up the process's file descriptors. Node checks the two timeouts every `connectionsCheckingInterval`
 * (30 s by default, far past a 10 s timeout), so it is set to a second.
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
  // DESIGN §8: beyond loopback, every route but /healthz requires a key
  const requireKey = options.requireKey || !isLoopback(hostname)
  // DNS rebinding: a loopback server without keys answers only to its loopback names (any port: it may be 0)
  const allowedHosts = requireKey ? undefined : [hostname, "localhost", "127.0.0.1", "::1"]
  // DESIGN §8: beyond loopback, http sources may not reach loopback, private, link-local or metadata addresses
  const refusePrivateSources = options.refusePrivateSources ?? (!isLoopback(hostname) && !options.allowPrivateSources)
  // a server keeps metrics unless told not to (GET /metrics)
  const host = await createHost({
    ...options,
    metrics: options.metrics ?? true,
    requireKey,
    allowedHosts,
    refusePrivateSources,
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
    s.once("error", reject)
  })
  server.maxConnections = options.maxConnections ?? 1_000
  // OTEL_EXPORTER_OTLP_ENDPOINT: spans go to that collector from here on
  const tracing = await startTracing(host.logger)
  const { port } = server.address() as AddressInfo
  return {
    host,
    url: `http://${hostname}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      await host.close()
      // after the host: executions cut off by the close end their spans first, and those are sent too
      await tracing?.shutdown()
    },
  }
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>
