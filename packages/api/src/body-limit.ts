/**
 * A bound on request bodies, so one request cannot make the server buffer an unbounded body.
 *
 * A body with a Content-Length is judged by that header alone: over the limit it is refused at once, unread;
 * otherwise the request goes on untouched, because the HTTP parser (Node's, and the one in front of a Worker)
 * never delivers more bytes than the header declares. This path never reads `request.body`: on
 * @hono/node-server that getter builds a whole undici Request and ReadableStream, the largest cost of a small
 * POST. A body without one (chunked) goes through hono's `bodyLimit`, which counts it as it streams.
 */
import type { Context, MiddlewareHandler } from "hono"
import { bodyLimit } from "hono/body-limit"
import { errorResponse } from "./http-errors.js"

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024

const MIB = 1024 * 1024

export const bytesText = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB (${bytes} bytes)` : `${bytes} bytes`

export const checkMaxBodyBytes = (bytes: number) => {
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new Error(`maxBodyBytes must be a positive whole number of bytes (got ${bytes})`)
  return bytes
}

/** RFC 9110 §8.6: `1*DIGIT`. Anything else (a list, a sign, spaces) is left to hono's streaming count. */
const CONTENT_LENGTH = /^\d+$/

export const limitBody = (maxBytes: number): MiddlewareHandler => {
  const tooLarge = (c: Context) =>
    errorResponse(
      c,
      "body_too_large",
      `the request body is larger than this server's limit of ${bytesText(maxBytes)}`,
      413,
    )
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge })
  return async (c, next) => {
    // a fetch Request never has a body on GET or HEAD, so hono's check would find none: skip it cheaply
    if (c.req.method === "GET" || c.req.method === "HEAD") return next()
    const length = c.req.header("content-length")
    // with Transfer-Encoding too, the length is not the framing (RFC 9112 §6.3): count the body instead
    if (length === undefined || !CONTENT_LENGTH.test(length) || c.req.header("transfer-encoding") !== undefined)
      return counted(c, next)
    return Number(length) > maxBytes ? tooLarge(c) : next()
  }
}
