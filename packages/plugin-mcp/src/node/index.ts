/**
 * @switchboard/plugin-mcp/node — what only a Node host can give the plugin: the egress guard for http sources
 * (DNS resolution with node:dns, a pinned undici connection). The main entry stays free of Node APIs.
 */
export { createGuardedFetch, privateAddressRefusal } from "./guarded-fetch.js"
export type { GuardedFetch, GuardedFetchOptions, ResolvedAddress } from "./guarded-fetch.js"
