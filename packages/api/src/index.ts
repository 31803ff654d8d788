/**
 * @switchboard/api — the hono app: /healthz, the /v1 HTTP routes, its OpenAPI document, and /mcp. It composes
 * nothing itself; a host (apps/server, apps/worker) builds the services and passes them in. No Node APIs.
 */
export { createApp } from "./app.js"
export type { AppOptions, AppServices } from "./app.js"
export { appServices } from "./app-services.js"
export type { RequestLog, RequestLogEntry } from "./request-log.js"
// the answers' shapes, for a client that speaks for the API without it (the CLI's catalog client)
export type { ExecuteBody } from "./wire/execute.js"
export type { ExecutePausedBody } from "./wire/approvals.js"
export type { ExecutionsBody, OutputMatchesBody, OutputPageBody } from "./wire/executions.js"
export { DEFAULT_MAX_BODY_BYTES } from "./body-limit.js"
export { errorCode, errorOf } from "./http-errors.js"
// the probe routes, which the Node host answers a client past its connection bound all the same
export { PROBE_PATHS } from "./probes.js"
export { approvalViewOf, defaultPolicyText, policyViewOf } from "./wire/approval-row-views.js"
export { argsPreview, cutNote, escapeUnsafe, safeJson } from "./args-preview.js"
export { keyViewOf } from "./wire/key-views.js"
export { openApiDocument } from "./openapi/document.js"
export { CONSOLE_CSP } from "./console-assets.js"
export type { ConsoleAssets, ConsoleFile } from "./console-assets.js"
export { approvalPageUrl, checkPublicUrl } from "./console-links.js"
