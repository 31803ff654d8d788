/**
 * The Worker host, as a merge of layers (the Node host's compose.ts, with a Worker's parts): the D1 catalog behind
 * the secret box, the MCP plugin over streamable HTTP only and the OpenAPI plugin, the isolate's QuickJS, core's services, and the hono
 * app from @switchboard/api. It is built for each request and released when the request ends: a Worker may not
 * use one request's I/O (an MCP connection) in another, so nothing that holds a connection outlives its request.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { drizzle } from "drizzle-orm/d1"
import { appServices, createApp } from "@switchboard/api"
import { consoleAssets } from "@switchboard/console/assets"
import * as Catalog from "@switchboard/core/catalog"
import * as Secrets from "@switchboard/core/secrets"
import * as OAuth from "@switchboard/core/oauth"
import { Services } from "@switchboard/core"
import type { CodeRuntime } from "@switchboard/core"
import { McpPlugin } from "@switchboard/plugin-mcp"
import { OpenApiPlugin } from "@switchboard/plugin-openapi"
import type { Env, WorkerConfig } from "./env.js"
import { WORKER_MAX_BODY_BYTES, workerLimits } from "./limits.js"
import { consoleLogger } from "./logger.js"

export const STDIO_ON_WORKERS =
  'stdio sources run a command on the host, and stdio sources cannot run on Cloudflare Workers: add the server over streamable HTTP (transport.type "http")'

export const WORKER_KEYS_HINT =
  "The first admin key is this Worker's secret SWITCHBOARD_ADMIN_KEY (`wrangler secret put SWITCHBOARD_ADMIN_KEY`)."

const catalogLayer = (env: Env, config: WorkerConfig) =>
  Layer.effect(
    Services.CatalogStore,
    Effect.gen(function* () {
      const plugins = yield* Services.SourcePlugins
      // made once per isolate and key (env.ts): it holds a CryptoKey, not I/O
      const box = yield* Effect.promise(config.secretBox)
      return Secrets.createSealedCatalogStore({ store: Catalog.createD1CatalogStore(drizzle(env.DB)), box, plugins })
    }),
  )

/** the largest OpenAPI spec a Worker reads: GitHub's (13 MB) compiles well within the isolate's 128 MB */
export const WORKER_MAX_SPEC_BYTES = 16 * 1024 * 1024

/** OAuth for sources: its grants in D1 (sealed with the same box), its requests through the Worker's fetch. */
const oauthLayer = (env: Env, config: WorkerConfig) =>
  Layer.effect(
    Services.OAuth,
    Effect.gen(function* () {
      return OAuth.createOAuthService({
        store: Catalog.createD1CatalogStore(drizzle(env.DB)),
        box: yield* Effect.promise(config.secretBox),
        logger: yield* Services.Logger,
      })
    }),
  )

const pluginsLayer = Layer.effect(Services.SourcePlugins, Effect.all([McpPlugin, OpenApiPlugin])).pipe(
  Layer.provide(
    Layer.unwrap(
      Effect.map(Services.OAuth, (oauth) =>
        Layer.merge(
          McpPlugin.layer({
            allowStdio: false,
            stdioUnavailableMessage: STDIO_ON_WORKERS,
            credentials: oauth.credentials,
          }),
          OpenApiPlugin.layer({ maxSpecBytes: WORKER_MAX_SPEC_BYTES, credentials: oauth.credentials }),
        ),
      ),
    ),
  ),
)

export const workerLayer = (env: Env, config: WorkerConfig, runtime: CodeRuntime) =>
  Services.coreLayer({ executor: { limits: workerLimits } }).pipe(
    Layer.provideMerge(catalogLayer(env, config)),
    Layer.provideMerge(pluginsLayer),
    Layer.provideMerge(oauthLayer(env, config)),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.succeed(Services.CodeRuntime, runtime),
        Layer.succeed(Services.Logger, consoleLogger),
        Services.StaleSources.layer,
      ),
    ),
  )

/** The host for one request: the app, and `close` to release its connections when the response is done. */
export const buildRequestHost = async (env: Env, config: WorkerConfig, runtime: CodeRuntime) => {
  const managed = ManagedRuntime.make(workerLayer(env, config, runtime))
  const built = await managed.runPromise(appServices).catch(async (cause: unknown) => {
    await managed.dispose()
    throw cause
  })
  return {
    ...built,
    app: createApp(built, { keysHint: WORKER_KEYS_HINT, maxBodyBytes: WORKER_MAX_BODY_BYTES, console: consoleAssets }),
    close: () => managed.dispose(),
  }
}
