/** The one place service errors become HTTP: `{"error":{"code","message"}}` with an honest status. */
import type { Context } from "hono"
import type { ServiceError } from "@switchboard/core"
import type { ErrorBody } from "./wire/error-body.js"

/** The statuses a service error is answered with: a typed client tells them from a success by status. */
type ErrorStatus = 400 | 403 | 404 | 409 | 429 | 500 | 502

const statusOf: Record<ServiceError["_tag"], { status: ErrorStatus; code: string }> = {
  InvalidInput: { status: 400, code: "invalid_request" },
  NotFound: { status: 404, code: "not_found" },
  Conflict: { status: 409, code: "conflict" },
  Forbidden: { status: 403, code: "forbidden" },
  SecretsUnreadable: { status: 409, code: "source_secrets_unreadable" },
  // the code is the refusal's own (`source_disabled`, `private_address`): see SourceRefused
  SourceRefused: { status: 403, code: "source_refused" },
  UpstreamFailed: { status: 502, code: "upstream_failed" },
  Overloaded: { status: 429, code: "overloaded" },
  Internal: { status: 500, code: "internal_error" },
}

export const errorOf = (code: string, message: string): ErrorBody => ({ error: { code, message } })

export const sendError = (c: Context, error: ServiceError) => {
  const { status } = statusOf[error._tag]
  const code = error._tag === "SourceRefused" ? error.code : statusOf[error._tag].code
  if (error._tag === "Overloaded") c.header("Retry-After", String(error.retryAfterSeconds))
  return c.json(errorOf(code, error.message), status)
}
