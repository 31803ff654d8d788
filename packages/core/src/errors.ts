/**
 * Expected failures of the service layer, as tagged data. The API turns them into HTTP in one place
 * (packages/api); guards check `_tag`, never `instanceof`, so a package bundled twice still matches.
 */
import { Data } from "effect"
import { driverCode, driverMessage } from "./database-fault.js"

/** The caller's request is malformed or names something impossible (HTTP 400). */
export class InvalidInput extends Data.TaggedError("InvalidInput")<{ message: string }> {}
/** Nothing by that name (HTTP 404). */
export class NotFound extends Data.TaggedError("NotFound")<{ message: string }> {}
/** The name is taken (HTTP 409). */
export class Conflict extends Data.TaggedError("Conflict")<{ message: string }> {}
/** The server's configuration forbids it (HTTP 403). */
export class Forbidden extends Data.TaggedError("Forbidden")<{ message: string }> {}
/** A source's stored secrets do not decrypt with this server's key; the message names the source and the fix (HTTP 409). */
export class SecretsUnreadable extends Data.TaggedError("SecretsUnreadable")<{ message: string }> {}
/**
 * This server will not start or reach the source (HTTP 403 with `code`): a stdio source without --allow-stdio
 * (`source_disabled`), or a private address on a server that refuses them (`private_address`).
 */
export class SourceRefused extends Data.TaggedError("SourceRefused")<{ message: string; code: string }> {}
/**
 * A source could not be reached or answered badly while adding or syncing (HTTP 502). `upstreamError`: it was
 * there and misbehaved (it broke a bound of what it may send): `upstream_error`, as a call to it is answered,
 * rather than `upstream_failed`.
 */
export class UpstreamFailed extends Data.TaggedError("UpstreamFailed")<{
  message: string
  retryable: boolean
  upstreamError?: boolean
}> {}
/** The server is at capacity; try again after `retryAfterSeconds` (HTTP 429). */
export class Overloaded extends Data.TaggedError("Overloaded")<{ message: string; retryAfterSeconds: number }> {}
/** Our own defect. The message is opaque and carries a correlation id; the details went to the log. */
export class Internal extends Data.TaggedError("Internal")<{ message: string; correlationId: string }> {}

export type ServiceError =
  | InvalidInput
  | NotFound
  | Conflict
  | Forbidden
  | SecretsUnreadable
  | SourceRefused
  | UpstreamFailed
  | Overloaded
  | Internal

const SERVICE_ERROR_TAGS: ReadonlySet<string> = new Set<ServiceError["_tag"]>([
  "InvalidInput",
  "NotFound",
  "Conflict",
  "Forbidden",
  "SecretsUnreadable",
  "SourceRefused",
  "UpstreamFailed",
  "Overloaded",
  "Internal",
])

/** A tag check, never `instanceof`: a package bundled twice still matches (ARCHITECTURE.md: tagged errors). */
export const isServiceError = (value: unknown): value is ServiceError =>
  typeof value === "object" && value !== null && SERVICE_ERROR_TAGS.has((value as { _tag?: unknown })._tag as string)

/** A validation's answer (request parsing; the wire's schemas will replace it): the service methods fail with a ServiceError instead. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError }

export const success = <T>(value: T): Outcome<T> => ({ ok: true, value })
export const failure = (error: ServiceError): Outcome<never> => ({ ok: false, error })

/** A logger the host provides; core never writes to a console of its own. */
export interface Logger {
  error(message: string, details?: Record<string, unknown>): void
  warn(message: string, details?: Record<string, unknown>): void
  info(message: string, details?: Record<string, unknown>): void
}

export const silentLogger: Logger = { error() {}, warn() {}, info() {} }

/**
 * What of an exception may be logged. A failed database query's message carries its parameters (source
 * configs with secrets, scripts, results), so for one only the statement and the driver's own error are kept.
 */
const loggable = (cause: unknown): Record<string, unknown> | string => {
  if (!(cause instanceof Error)) return String(cause).slice(0, 2_000)
  const query = (cause as { query?: unknown }).query
  if (typeof query === "string") return { query: query.slice(0, 2_000), driverError: driverMessage(cause) }
  const code = driverCode(cause)
  return {
    message: cause.message.slice(0, 2_000),
    ...(code === undefined ? {} : { code }),
    stack: cause.stack?.slice(0, 4_000),
  }
}

/** Logs an unexpected exception with a fresh correlation id and returns the opaque error for the caller. */
export const internalError = (logger: Logger, where: string, cause: unknown): Internal => {
  const correlationId = crypto.randomUUID()
  logger.error(`internal error in ${where}`, { correlationId, error: loggable(cause) })
  return new Internal({ message: `internal error (correlation id ${correlationId})`, correlationId })
}
