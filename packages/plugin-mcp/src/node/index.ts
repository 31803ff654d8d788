/**
 * @switchboard/plugin-mcp/node — what only a Node host can give the plugin: the egress guard for http sources
 * (DNS resolution with node:dns, a pinned undici connection) and the stdio transport (a child process whose stdout
 * is read within bounds). The main entry stays free of Node APIs.
 */
import { createMcpPlugin as createPlugin } from "../plugin.js"
import type { McpPluginOptions } from "../plugin.js"
import { spawnNodeStdio } from "./stdio-spawner.js"

export { nodeStdioLayer, spawnNodeStdio } from "./stdio-spawner.js"

/** `createMcpPlugin` with Node's stdio spawner, unless `spawnStdio` says otherwise. */
export const createMcpPlugin = (options: McpPluginOptions = {}) =>
  createPlugin({ spawnStdio: spawnNodeStdio, ...options })
export { createGuardedFetch, privateAddressRefusal } from "./guarded-fetch.js"
export type { GuardedFetch, GuardedFetchOptions, ResolvedAddress } from "./guarded-fetch.js"
