/** The pool's typed failures. Guards check `_tag`, never `instanceof`, which fails when a package is bundled twice (ARCHITECTURE.md: tagged errors). */
import { Data } from "effect"
import type { AuthFailureCode, SourceRefusalCode } from "@switchboard/core"

/**
 * The source could not be connected to; `message` is already scrubbed of the source's secrets and cut (upstream
 * text). `refused` when this server would not start or reach it at all.
 */
export class ConnectFailed extends Data.TaggedError("ConnectFailed")<{
  message: string
  refused?: SourceRefusalCode
  /** the server broke a bound of what it may send (a stdout flood): its fault, not its absence (`upstream_error`) */
  upstreamError?: boolean
  /** an HTTP handshake that failed in a way a restarting server fails (5xx, no connection): one more try is made */
  retryable?: boolean
  /**
   * the source needs an OAuth login (or its credentials could not be had): `code` is the call's error code, and
   * `authRequired` set when a person must log in (./oauth-fetch.ts)
   */
  auth?: { code: string; authRequired?: AuthFailureCode }
  cause?: unknown
}> {}

/**
 * A request the upstream did not process (it lost our session, or refused the connection): the pool drops the
 * connection and runs the request once more on a new one.
 */
export class NotProcessed extends Data.TaggedError("NotProcessed")<{ cause: unknown }> {}

/** A request that failed in a way its caller did not map to a value: a defect of ours, kept typed to the plugin's edge. */
export class RequestFailed extends Data.TaggedError("RequestFailed")<{ cause: unknown }> {}

const hasTag = (value: unknown, tag: string) =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === tag

export const isNotProcessed = (value: unknown): value is NotProcessed => hasTag(value, "NotProcessed")

export const isConnectFailed = (value: unknown): value is ConnectFailed => hasTag(value, "ConnectFailed")
