/**
 * The one place service errors (core's typed errors, checked by `_tag`) become wire answers: HTTP
 * `{"error":{"code","message"}}` with an honest status, and the text of an MCP tool's error result.
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { Context } from "hono"
import type { ContentfulStatusCode } from "hono/utils/http-status"
import type { ServiceError } from "@switchboard/core"

const statusOf: Record<ServiceError["_tag"], { status: ContentfulStatusCode; code: string }> = {
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

export const errorBody = (code: string, message: string) => ({ error: { code, message } })

/** The wire code of a service error: the table's, or a refusal's own. */
export const errorCode = (error: ServiceError): string =>
  error._tag === "SourceRefused" ? error.code : statusOf[error._tag].code

/** An MCP tool's error text for a service error: `error (<code>): <message>`, as the execute tool words a failed run. */
export const mcpErrorText = (error: ServiceError): string => `error (${errorCode(error)}): ${error.message}`

export const sendError = (c: Context, error: ServiceError) => {
  const { status } = statusOf[error._tag]
  const code = errorCode(error)
  if (error._tag === "Overloaded") c.header("Retry-After", String(error.retryAfterSeconds))
  return c.json(errorBody(code, error.message), status)
}

/** What a client that hung up is answered; nobody reads it (nginx's 499 "client closed request"). */
const clientClosed = (c: Context) =>
  c.json(errorBody("client_closed_request", "the client closed the connection before the answer"), 499 as 400)

/**
 * Runs a service's Effect for one request: the request's signal interrupts it when the client hangs up, and a
 * typed service error is answered here, by `sendError`. Only a defect rejects (the app's onError logs it).
 */
export const runForRequest = async <A>(
  c: Context,
  effect: Effect.Effect<A, ServiceError>,
  answer: (value: A) => Response | Promise<Response>,
): Promise<Response> => {
  const exit = await Effect.runPromiseExit(effect, { signal: c.req.raw.signal })
  if (Exit.isSuccess(exit)) return answer(exit.value)
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isSome(error)) return sendError(c, error.value)
  if (Cause.hasInterruptsOnly(exit.cause)) return clientClosed(c)
  throw Cause.squash(exit.cause)
}

/** Reads a JSON body; a body that is not JSON is the caller's mistake, answered with 400. */
export const readJson = async (
  c: Context,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> => {
  const text = await c.req.text()
  try {
    return { ok: true, body: JSON.parse(text) }
  } catch (cause) {
    const detail = text.length === 0 ? "the body is empty" : (cause as Error).message
    return { ok: false, response: c.json(errorBody("invalid_json", `the body must be JSON: ${detail}`), 400) }
  }
}
