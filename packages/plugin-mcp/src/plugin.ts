/** The SourcePlugin for MCP servers: discovery through `tools/list`, calls through `tools/call`, pooled connections. */
import { ResultEncodings, ToolErrorCodes } from "@switchboard/core"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { checkConfig, mergeConfig, redactConfig, secretFields } from "./config.js"
import type { McpSourceConfig } from "./config.js"
import { anyMcpSourcePatch, mcpSourceConfig } from "./config-schema.js"
import { listAllTools } from "./discover.js"
import { callTool } from "./invoke.js"
import { createConnectionPool, isConnectFailed, NotProcessed } from "./pool.js"
import type { StdioAllowance } from "./connection.js"
import { scrubResult } from "./scrub-result.js"
import { findRefusal } from "./refusal.js"
import { errorText, stderrTail, upstreamMessage } from "./upstream-text.js"

export interface McpPluginOptions {
  /**
   * stdio sources run a command on this host; off unless the operator enables them (checked at every connect).
   * A list of exact commands allows only those.
   */
  allowStdio?: StdioAllowance
  /**
   * The fetch every request to an http source goes through: the host's egress guard (`createGuardedFetch` from
   * `@switchboard/plugin-mcp/node` on Node). It throws a `SourceRefusal` to refuse an address. Default: global fetch.
   */
  fetch?: FetchLike
  /** the largest JSON response or stream event an http source may send; past it the call or sync fails (64 MiB) */
  maxUpstreamMessageBytes?: number
  connectTimeoutMs?: number
  listTimeoutMs?: number
  /** how long an unused connection stays open */
  idleTimeToLiveMs?: number
  /** the server said its tool list changed (`notifications/tools/list_changed`) */
  onToolsChanged?: (sourceId: string) => void
}

export const createMcpPlugin = async (options: McpPluginOptions = {}): Promise<SourcePlugin> => {
  const {
    allowStdio = false,
    connectTimeoutMs = 30_000,
    listTimeoutMs = 30_000,
    idleTimeToLiveMs = 10 * 60_000,
  } = options
  const pool = await createConnectionPool({
    policy: { allowStdio, fetch: options.fetch, maxMessageBytes: options.maxUpstreamMessageBytes },
    connectTimeoutMs,
    idleTimeToLiveMs,
    onToolsChanged: (id) => options.onToolsChanged?.(id),
  })
  const configOf = (source: SourceHandle) => source.config as McpSourceConfig

  return {
    kind: "mcp",
    configSchema: mcpSourceConfig,
    patchSchema: anyMcpSourcePatch,
    validateConfig: (config) => checkConfig(config),
    redactConfig,
    secretFields,
    mergeConfig,

    async discover(source) {
      const config = configOf(source)
      const outcome = await pool.withConnection(source.id, config, (connection) =>
        listAllTools(connection, listTimeoutMs).then(
          (tools) => ({ ok: true as const, tools }),
          (cause) => {
            const refusal = findRefusal(cause)
            if (refusal) return { ok: false as const, message: refusal.message, refused: refusal.code }
            // tools/list changes nothing upstream: any lost request is sent again, once, on a new session
            if (connection.lossOf(cause) !== null) throw new NotProcessed({ cause })
            const stderr = connection.stderrTail()
            const reason = connection.overflow()?.message ?? errorText(cause)
            return {
              ok: false as const,
              message: `tools/list failed: ${upstreamMessage(config, `${reason}${stderr ? ` (stderr: ${stderrTail(stderr)})` : ""}`)}`,
            }
          },
        ),
      )
      // ConnectFailed messages are scrubbed and cut where they are made (pool.ts)
      if (isConnectFailed(outcome)) {
        return outcome.refused
          ? { ok: false, message: outcome.message, refused: outcome.refused }
          : { ok: false, message: `could not connect: ${outcome.message}` }
      }
      if (!outcome.ok) return outcome
      // a description or schema may quote a secret too; names are kept, or the tool could not be called
      const tools = outcome.tools.map(({ name, ...rest }) => ({ name, ...(scrubResult(config, rest) as typeof rest) }))
      return { ok: true, discovery: { tools, encoding: ResultEncodings.mcpCallToolResultV2 } }
    },

    async invoke(source, tool, args, ctx) {
      const config = configOf(source)
      const outcome = await pool.withConnection(source.id, config, (connection) =>
        callTool(connection, config, tool, args, ctx),
      )
      if (isConnectFailed(outcome)) {
        if (outcome.refused) return { ok: false, code: outcome.refused, message: outcome.message }
        const message = `could not connect to "${source.namespace}": ${outcome.message}`
        return outcome.upstreamError
          ? { ok: false, code: ToolErrorCodes.upstreamError, message }
          : { ok: false, code: ToolErrorCodes.upstreamUnavailable, message, retryable: true }
      }
      // failures are scrubbed where they are made (invoke.ts); a result is the tool's data, scrubbed here
      return outcome.ok ? { ok: true, raw: scrubResult(config, outcome.raw) } : outcome
    },

    release: (sourceId) => pool.release(sourceId),
    close: () => pool.close(),
  }
}
