import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { serve } from "@hono/node-server"
import { createApp } from "@switchboard/api"
import type { AppOptions } from "@switchboard/api"
import { createHost } from "../../src/compose.js"
import { memoryLogger, tempDir } from "./helpers.js"

/**
 * A host's services behind an app built with options of the test's choosing, served on a loopback port as
 * serve.ts serves it: for app options (allowedHosts, maxBodyBytes) that createHost does not pass through.
 */
export const serveAppWith = async (options: AppOptions) => {
  const { dir, remove } = tempDir()
  const host = await createHost({ db: join(dir, "catalog.db"), runtime: "in-thread", logger: memoryLogger().logger })
  const app = createApp(
    {
      sources: host.sources,
      executor: host.executor,
      store: host.store,
      logger: host.logger,
      policies: host.policies,
      approvals: host.approvals,
    },
    options,
  )
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s))
    s.once("error", reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        ;(server as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      await host.close()
      remove()
    },
  }
}

export type ServedApp = Awaited<ReturnType<typeof serveAppWith>>
