/**
 * The host's source plugins: MCP, over the Node stdio transport (`nodeStdioLayer`, provided by compose.ts), and
 * OpenAPI; both reach the network through one egress guard when the host refuses private addresses.
 */
import { Effect, Layer } from "effect"
import { Services } from "@switchboard/core"
import { McpPlugin } from "@switchboard/plugin-mcp"
import { OpenApiPlugin } from "@switchboard/plugin-openapi"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { createGuardedFetch } from "@switchboard/plugin-mcp/node"
import type { GuardedFetchOptions } from "@switchboard/plugin-mcp/node"

export interface PluginOptions {
  allowStdio?: StdioAllowance
  refusePrivateSources?: boolean | GuardedFetchOptions
  /** keys and elements one tool result may hold; past it the call answers `tool_result_too_large` unread */
  maxToolResultNodes?: number
}

/** The guard is a resource of its own (it keeps a connection pool): released after the plugin's connections. */
const guardedFetch = (refuse: PluginOptions["refusePrivateSources"]) =>
  refuse
    ? Effect.acquireRelease(
        Effect.sync(() => createGuardedFetch(refuse === true ? {} : refuse)),
        (guard) => Effect.promise(() => guard.close()),
      )
    : Effect.succeed(undefined)

export const pluginsLayer = (
  options: PluginOptions,
): Layer.Layer<Services.SourcePlugins, never, Services.StaleSources> =>
  Layer.unwrap(
    Effect.map(guardedFetch(options.refusePrivateSources), (fetch) =>
      Layer.effect(Services.SourcePlugins, Effect.all([McpPlugin, OpenApiPlugin])).pipe(
        Layer.provide(
          Layer.merge(
            McpPlugin.layer({
              allowStdio: options.allowStdio ?? false,
              fetch,
              maxToolResultNodes: options.maxToolResultNodes,
            }),
            OpenApiPlugin.layer({
              fetch,
              refusePrivateAddresses: fetch !== undefined,
              maxToolResultNodes: options.maxToolResultNodes,
            }),
          ),
        ),
      ),
    ),
  )
