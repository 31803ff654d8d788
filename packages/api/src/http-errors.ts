/**
 * The one place service errors (core's typed errors, checked by `_tag`) become wire answers: HTTP
 * `{"error":{"code","message"}}` with an honest status, and the text of an MCP tool's error result.
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { Context } from "hono"
import type { ContentfulStatusCode } from "hono/utils/http-status"
import type { ServiceError } from "@switchboard/core"
import type { ErrorBody } from "./wire/error-body.js"

/** The statuses a service error is answered with: a typed client tells them from a success by status. */
type ErrorStatus = 400 | 403 | 404 | 409 | 429 | 500 | 502

/** Each service error's status and wire code; the OpenAPI document's error answers take their statuses from here. */
export const statusOf: Record<ServiceError["_tag"], { status: ErrorStatus; code: string }> = {
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

/** Answers `{"error":{"code","message"}}` with `status`, and keeps the code for the request log (./request-log.ts). */
export const errorResponse = <S extends ContentfulStatusCode>(c: Context, code: string, message: string, status: S) => {
  c.set("errorCode", code)
  return c.json(errorOf(code, message), status)
}

/** The wire code of a service error: the table's, or a refusal's own. */
export const errorCode = (error: ServiceError): string =>
  error._tag === "SourceRefused"
    ? error.code
    : error._tag === "UpstreamFailed" && error.upstreamError
      ? "upstream_error"
      : statusOf[error._tag].code

/** An MCP tool's error text for a service error: `error (<code>): <message>`, as the execute tool words a failed run. */
export const mcpErrorText = (error: ServiceError): string => `error (${errorCode(error)}): ${error.message}`

export const sendError = (c: Context, error: ServiceError) => {
  const { status } = statusOf[error._tag]
  if (error._tag === "Overloaded") c.header("Retry-After", String(error.retryAfterSeconds))
  return errorResponse(c, errorCode(error), error.message, status)
}

/** What a client that hung up is answered; nobody reads it (nginx's 499 "client closed request"). */
const clientClosed = (c: Context) =>
  errorResponse(c, "client_closed_request", "the client closed the connection before the answer", 499 as 400)

/**
 * Runs a service's Effect for one request: the request's signal interrupts it when the client hangs up, and a
 * typed service error is answered here, by `sendError`. Only a defect rejects (the app's onError logs it).
 */
export const runForRequest = async <A, R extends Response>(
  c: Context,
  effect: Effect.Effect<A, ServiceError>,
  answer: (value: A) => R | Promise<R>,
): Promise<R | ReturnType<typeof sendError>> => {
  const exit = await Effect.runPromiseExit(effect, { signal: c.req.raw.signal })
  if (Exit.isSuccess(exit)) return answer(exit.value)
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isSome(error)) return sendError(c, error.value)
  if (Cause.hasInterruptsOnly(exit.cause)) return clientClosed(c)
  throw Cause.squash(exit.cause)
}
