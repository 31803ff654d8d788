/** Database failures that are nobody's defect, and what of a driver's error may be shown. */
import { Data } from "effect"

/**
 * The database cannot be used, for a reason that is not a defect of ours: locked by another connection for too
 * long, a file deleted or replaced under the server. The message says which and is safe to show (no query
 * parameters); `cause` is the driver's error, when there is one.
 */
export class DatabaseFault extends Data.TaggedError("DatabaseFault")<{ message: string; cause?: unknown }> {}

export const isDatabaseFault = (error: unknown): error is DatabaseFault =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "DatabaseFault"

/** the error a wrapper wraps, down to the driver's own (drizzle wraps a failed query's, with its parameters) */
const innermost = (error: unknown): unknown => {
  let at = error
  for (let depth = 0; depth < 4 && at instanceof Error && at.cause instanceof Error; depth++) at = at.cause
  return at
}

/**
 * The driver's own message and code, e.g. "disk I/O error (SQLITE_IOERR_WRITE)" or "connect ECONNREFUSED
 * 127.0.0.1:5432 (ECONNREFUSED)": never a wrapper's, whose message holds the query and its parameters.
 */
export const driverMessage = (error: unknown): string => {
  if (isDatabaseFault(error)) return error.message
  const inner = innermost(error)
  // a wrapper with nothing inside: its message is the query, never shown
  const wrapper =
    typeof (inner as { query?: unknown })?.query === "string" &&
    inner === error &&
    (error as { cause?: unknown }).cause === undefined
  const message = wrapper ? "the query failed" : inner instanceof Error ? inner.message : String(inner)
  const code = driverCode(error)
  const text = message.slice(0, 300)
  return code !== undefined && !text.includes(code) ? `${text} (${code})` : text
}

/** the driver's error code on the error or on the error it wraps (drizzle wraps a failed query's) */
export const driverCode = (error: unknown): string | undefined => {
  for (
    let at = error, depth = 0;
    typeof at === "object" && at !== null && depth < 4;
    at = (at as { cause?: unknown }).cause, depth++
  ) {
    const code = (at as { code?: unknown }).code
    if (typeof code === "string") return code
  }
  return undefined
}
