/** Serves a host's app over HTTP on Node. */
import { serve } from "@hono/node-server"
import type { AddressInfo } from "node:net"
import { createHost } from "./compose.js"
import type { HostOptions } from "./compose.js"

export interface ServeOptions extends HostOptions {
  port?: number
  hostname?: string
}

export const startServer = async (options: ServeOptions) => {
  const host = await createHost(options)
  const hostname = options.hostname ?? "127.0.0.1"
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
