/**
 * An upstream that broke a bound of what it may send: a stdio server flooding stdout (stdout-reader.ts) or an http
 * server answering past the message bound (bounded-fetch.ts). It was reached and misbehaved, so a call or a sync
 * that fails for it is `upstream_error`, not retryable, whichever transport it came over.
 */
import type { UpstreamMessageTooLarge } from "./bounded-fetch.js"
import type { StdoutOverflow } from "./stdout-reader.js"

export type UpstreamOverflow = StdoutOverflow | UpstreamMessageTooLarge

export const isUpstreamOverflow = (value: unknown): value is UpstreamOverflow => {
  const tag = typeof value === "object" && value !== null ? (value as { _tag?: unknown })._tag : undefined
  return tag === "StdoutOverflow" || tag === "UpstreamMessageTooLarge"
}
