/**
 * Composition for the Node host: SQLite or Postgres catalog, MCP plugin, QuickJS runtime, core services, hono app.
 * This is the only place the packages meet.
 */
import { createApp } from "@switchboard/api"
import { createExecutor, createSourcesService } from "@switchboard/core"
import type { Logger, RunLimits } from "@switchboard/core"
import { createMcpPlugin } from "@switchboard/plugin-mcp"
import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import { createStderrLogger } from "./logger.js"
import { openCatalogDatabase } from "./catalog-database.js"

export interface HostOptions {
  /** path of the SQLite file, or a postgres:// URL */
  db: string
  allowStdio?: boolean
  /** re-sync a source's catalog when it is older than this (default 15 minutes) */
  syncTtlMs?: number
  limits?: Partial<RunLimits>
  logger?: Logger
}

export const createHost = async (options: HostOptions) => {
  const logger = options.logger ?? createStderrLogger()
  const database = await openCatalogDatabase(options.db)
  const { store } = database
  // the plugin reports `tools/list_changed` before the sources service exists: bind late
  let onToolsChanged = (_sourceId: string) => {}
  const mcp = await createMcpPlugin({ allowStdio: options.allowStdio ?? false, onToolsChanged: (id) => onToolsChanged(id) })
  const plugins = [mcp]
  const runtime = await createQuickJsRuntime()
  const sources = createSourcesService({ store, plugins, logger, syncTtlMs: options.syncTtlMs })
  onToolsChanged = sources.markStale
  const executor = createExecutor({ store, sources, runtime, plugins, logger, limits: options.limits })
  const app = createApp({ sources, executor, store, logger })
  return {
    app,
    store,
    sources,
    executor,
    logger,
    async close() {
      await Promise.all(plugins.map((p) => p.close()))
      await database.close()
    },
  }
}

export type Host = Awaited<ReturnType<typeof createHost>>
