/**
 * Composition for the Node host: SQLite catalog, MCP plugin, QuickJS runtime, core services, hono app.
 * This is the only place the packages meet.
 */
import { createApp } from "@switchboard/api"
import { createExecutor, createSourcesService, createSqliteCatalogStore } from "@switchboard/core"
import type { Logger, RunLimits } from "@switchboard/core"
import { createMcpPlugin } from "@switchboard/plugin-mcp"
import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import { createStderrLogger } from "./logger.js"
import { openSqlite } from "./sqlite-database.js"

export interface HostOptions {
  /** path of the SQLite file */
  db: string
  allowStdio?: boolean
  /** re-sync a source's catalog when it is older than this (default 15 minutes) */
  syncTtlMs?: number
  limits?: Partial<RunLimits>
  logger?: Logger
}

export const createHost = async (options: HostOptions) => {
  const logger = options.logger ?? createStderrLogger()
  const database = openSqlite(options.db)
  const store = createSqliteCatalogStore(database.db)
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
      database.close()
    },
  }
}

export type Host = Awaited<ReturnType<typeof createHost>>
