/**
 * A bound on request bodies, so one request cannot make the server buffer an unbounded body. hono's
 * `bodyLimit` trusts a Content-Length (the HTTP parser stops at it) and counts a chunked body as it streams.
 */
import type { MiddlewareHandler } from "hono"
import { bodyLimit } from "hono/body-limit"
import { errorBody } from "./http-errors.js"

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024

const MIB = 1024 * 1024

export const describeBytes = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB (${bytes} bytes)` : `${bytes} bytes`)

export const checkMaxBodyBytes = (bytes: number) => {
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error(`maxBodyBytes must be a positive whole number of bytes (got ${bytes})`)
  return bytes
}

export const limitBody = (maxBytes: number): MiddlewareHandler =>
  bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json(errorBody("body_too_large", `the request body is larger than this server's limit of ${describeBytes(maxBytes)}`), 413),
  })
