/**
 * The host's source plugins: MCP, over the Node stdio transport (`nodeStdioLayer`, provided by compose.ts), and
 * OpenAPI; both reach the network through one egress guard when the host refuses private addresses. OAuth for
 * sources, whose requests go through the same guard, is made from the database's store and the secret box before
 * the plugins that take its credentials.
 */
import { Effect, Layer } from "effect"
import { Services } from "@switchboard/core"
import * as OAuth from "@switchboard/core/oauth"
import { McpPlugin } from "@switchboard/plugin-mcp"
import { OpenApiPlugin } from "@switchboard/plugin-openapi"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { createGuardedFetch } from "@switchboard/plugin-mcp/node"
import type { GuardedFetchOptions } from "@switchboard/plugin-mcp/node"
import { CatalogDatabase } from "./database.js"
import { SecretBox } from "./secrets.js"

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

const oauthLayer = (fetch: typeof globalThis.fetch | undefined) =>
  Layer.effect(
    Services.OAuth,
    Effect.gen(function* () {
      const database = yield* CatalogDatabase
      return OAuth.createOAuthService({
        store: database.store,
        box: yield* SecretBox,
        fetch,
        logger: yield* Services.Logger,
        now: yield* Services.nowFrom,
      })
    }),
  )

export const pluginsLayer = (
  options: PluginOptions,
): Layer.Layer<
  Services.SourcePlugins | Services.OAuth,
  never,
  Services.StaleSources | CatalogDatabase | SecretBox | Services.Logger
> =>
  Layer.unwrap(
    Effect.map(guardedFetch(options.refusePrivateSources), (fetch) =>
      Layer.effect(Services.SourcePlugins, Effect.all([McpPlugin, OpenApiPlugin])).pipe(
        Layer.provide(
          Layer.unwrap(
            Effect.map(Services.OAuth, (oauth) =>
              Layer.merge(
                McpPlugin.layer({
                  allowStdio: options.allowStdio ?? false,
                  fetch,
                  maxToolResultNodes: options.maxToolResultNodes,
                  credentials: oauth.credentials,
                }),
                OpenApiPlugin.layer({
                  fetch,
                  refusePrivateAddresses: fetch !== undefined,
                  maxToolResultNodes: options.maxToolResultNodes,
                  credentials: oauth.credentials,
                }),
              ),
            ),
          ),
        ),
        Layer.provideMerge(oauthLayer(fetch as typeof globalThis.fetch | undefined)),
      ),
    ),
  )
