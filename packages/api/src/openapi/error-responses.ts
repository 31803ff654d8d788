/**
 * The error answers a route may list (`errors` in its RouteSpec), each a named response of the document:
 * its status, and the codes it carries. A service error's status is the one it is answered with
 * (../http-errors.ts); the others are the key check's, the request guard's, the body limit's and onError's.
 */
import { DEFAULT_MAX_BODY_BYTES, bytesText } from "../body-limit.js"
import { DEFAULT_MAX_DOWNLOADS_PER_KEY } from "../download-slots.js"
import { statusOf } from "../http-errors.js"

export interface ErrorResponse {
  status: number
  description: string
  headers?: Record<string, { description?: string; schema: object }>
}

const retryAfter = { "Retry-After": { description: "seconds", schema: { type: "integer" } } }

export const errorResponses = {
  BadRequest: {
    status: statusOf.InvalidInput.status,
    description:
      "`invalid_json`: the body is not JSON; `invalid_request`: a field or parameter is missing or wrong (the message says which)",
  },
  Unauthorized: {
    status: 401,
    description:
      "`unauthorized`: this server requires an API key, and none or a wrong (unknown or revoked) one was sent",
    headers: { "WWW-Authenticate": { schema: { type: "string" } } },
  },
  Forbidden: {
    status: statusOf.Forbidden.status,
    description:
      "`forbidden_origin`: sent by a web page at another origin; `forbidden_host`: a Host header this server does not answer to (DNS rebinding); " +
      '`forbidden`: the API key lacks the scope this route needs (the message names it: `this route needs the "admin" scope; this key has: execute`), ' +
      "or /v1/keys on a server that checks no key; " +
      "`source_disabled`: a stdio source on a host that does not allow them (a Node server started without --allow-stdio, " +
      "or a Cloudflare Worker) when adding or syncing it; " +
      "`code_loading_env`: a stdio source whose env sets a variable that makes its command load code (NODE_OPTIONS, LD_PRELOAD, " +
      "PYTHONPATH, …) on a server started without --allow-stdio-code-env; " +
      "`private_address`: an http source whose address is loopback, private, link-local or metadata, " +
      "on a server that listens beyond loopback without --allow-private-sources",
  },
  NotFound: {
    status: statusOf.NotFound.status,
    description:
      "`not_found`: no such source, tool, execution or key (another key's execution, for a key without `admin`, is answered the same)",
  },
  Conflict: {
    status: statusOf.Conflict.status,
    description: "`conflict`: a source with this namespace already exists",
  },
  ApprovalConflict: {
    status: statusOf.Conflict.status,
    description:
      "`conflict`: the approval was decided already, or it has expired (which counts as a decline; the server resumes the run with the call declined)",
  },
  PayloadTooLarge: {
    status: 413,
    description: `\`body_too_large\`: the body is over the server's limit (default ${bytesText(DEFAULT_MAX_BODY_BYTES)})`,
  },
  UnsupportedMediaType: {
    status: 415,
    description: "`unsupported_media_type`: a body, or a declared content type, that is not `application/json`",
  },
  Overloaded: {
    status: statusOf.Overloaded.status,
    description: "`overloaded`: every sandbox is busy and the queue is full",
    headers: retryAfter,
  },
  OutputBusy: {
    status: 429,
    description:
      `\`too_many_downloads\`: the key already has the server's limit of downloads of whole texts in progress (default ${DEFAULT_MAX_DOWNLOADS_PER_KEY}; ` +
      "a server without keys counts every caller as one); `overloaded`: too many searches are waiting",
    headers: retryAfter,
  },
  Internal: {
    status: statusOf.Internal.status,
    description: "`internal_error`: a defect of the server; the message holds a correlation id for its log",
  },
  DatabaseUnavailable: {
    status: 503,
    description:
      "`database_unavailable`: the catalog database cannot be used, for a reason that is no defect: locked by another connection past the wait, " +
      "or its SQLite file deleted or replaced while the server had it open; the message says which (as /readyz does)",
  },
  UpstreamFailed: {
    status: statusOf.UpstreamFailed.status,
    description:
      "`upstream_failed`: the source's MCP server could not be reached or failed to list its tools; `upstream_error`: it was reached and broke a bound " +
      "of what it may send (a stdio server flooding stdout, or an http server answering past the message bound)",
  },
  SecretsUnreadable: {
    status: statusOf.SecretsUnreadable.status,
    description:
      "`source_secrets_unreadable`: the source's stored secrets do not decrypt with this server's key (they were encrypted with another); " +
      "the message names them. Send new values with PATCH, or restore the key",
  },
} satisfies Record<string, ErrorResponse>

export type ErrorResponseName = keyof typeof errorResponses
