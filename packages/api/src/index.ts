/**
 * @switchboard/api — the hono app: /healthz and the /v1 HTTP routes. It composes nothing itself; a host
 * (apps/server, apps/worker) builds the services and passes them in. No Node APIs.
 */
export { createApp } from "./app.js"
export type { AppServices } from "./app.js"
