/**
 * @switchboard/core — the domain: result contract, encodings, catalog, executor, rendering.
 * Web-standard APIs only: it runs unchanged on Node 20 and on Cloudflare Workers. It imports no plugin,
 * runtime or host; those implement the seams declared in ./seams.ts.
 */
export * from "./result.js"
export * from "./seams.js"
export * from "./encodings/encoding.js"
