/**
 * @switchboard/plugin-mcp/node — what only a Node host can give the plugin: the egress guard for http sources
 * (DNS resolution with node:dns, a pinned undici connection), the stdio transport (a child process whose stdout
 * is read within bounds) and a stdio server's paths (made absolute and checked when its source is added). The main
 * entry stays free of Node APIs.
 */
import { createMcpPlugin as createPlugin } from "../plugin.js"
import type { McpPluginOptions } from "../plugin.js"
import { pinNodeStdio } from "./stdio-paths.js"
import { spawnNodeStdio } from "./stdio-spawner.js"

export { nodeStdioLayer, spawnNodeStdio } from "./stdio-spawner.js"
export { resolveStdioPaths } from "./stdio-paths.js"

/** `createMcpPlugin` with Node's stdio spawner and paths, unless `spawnStdio` or `pinStdio` says otherwise. */
export const createMcpPlugin = (options: McpPluginOptions = {}) =>
  createPlugin({ spawnStdio: spawnNodeStdio, pinStdio: pinNodeStdio, ...options })
export { createGuardedFetch, privateAddressRefusal } from "./guarded-fetch.js"
export type { GuardedFetch, GuardedFetchOptions, ResolvedAddress } from "./guarded-fetch.js"
