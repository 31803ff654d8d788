/** Serves a host's app over HTTP on Node. */
import { serve } from "@hono/node-server"
import type { AddressInfo } from "node:net"
import { createHost } from "./compose.js"
import type { HostOptions } from "./compose.js"

export interface ServeOptions extends HostOptions {
  port?: number
  hostname?: string
  /** --allow-private-sources: a server beyond loopback lets http sources reach private addresses after all */
  allowPrivateSources?: boolean
}

/** 127.0.0.0/8, ::1 and localhost: the only addresses where the API answers without a key. */
export const isLoopback = (hostname: string) => /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "::1" || hostname === "[::1]" || hostname === "localhost"

export const startServer = async (options: ServeOptions) => {
  const hostname = options.hostname ?? "127.0.0.1"
  // DESIGN §8: beyond loopback, every route but /healthz requires a key
  const requireKey = options.requireKey || !isLoopback(hostname)
  // DNS rebinding: a loopback server without keys answers only to its loopback names (any port: it may be 0)
  const allowedHosts = requireKey ? undefined : [hostname, "localhost", "127.0.0.1", "::1"]
  // DESIGN §8: beyond loopback, http sources may not reach loopback, private, link-local or metadata addresses
  const refusePrivateSources = options.refusePrivateSources ?? (!isLoopback(hostname) && !options.allowPrivateSources)
  const host = await createHost({ ...options, requireKey, allowedHosts, refusePrivateSources })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: host.app.fetch, port: options.port ?? 4747, hostname }, () => resolve(s))
    s.once("error", reject)
  })
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
    },
  }
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>
