/**
 * A discovery outside the shared syncs (an add, or a PATCH's trial of its config), and what a failed discovery is to
 * the caller.
 */
import { Effect } from "effect"
import { SourceRefused, UpstreamFailed, internalError } from "../errors.js"
import type { Logger } from "../errors.js"
import type { DiscoveryFailure, SourceHandle, SourcePlugin } from "../seams.js"
import type { ProgressListener, ProgressOf } from "./sync-progress.js"
import type { SourceLogins } from "../oauth/oauth-service.js"

/**
 * A refusal by this server's configuration (`SourceRefused`), or the source failing, retryable unless it was reached
 * and misbehaved (`upstream_error`).
 */
export const discoveryError = (failure: DiscoveryFailure, what: string): SourceRefused | UpstreamFailed =>
  failure.refused
    ? new SourceRefused({ message: failure.message, code: failure.refused })
    : new UpstreamFailed({
        message: `${what}: ${failure.message}`,
        retryable: !failure.upstreamError,
        ...(failure.upstreamError ? { upstreamError: true } : {}),
      })

export interface DiscoverAloneOptions {
  plugin: SourcePlugin
  source: SourceHandle
  /** the caller's follower: it alone hears the pages */
  onProgress: ProgressListener | undefined
  progressOf: ProgressOf
  logger: Logger
}

/** One discovery, its rejection our defect answered as a failure value (with a correlation id in the log). */
export const discoverAlone = ({ plugin, source, onProgress, progressOf, logger }: DiscoverAloneOptions) => {
  const listeners = onProgress ? [onProgress] : []
  const progress = progressOf(source.namespace, () => listeners)
  return Effect.promise(async () => {
    const discovered = await plugin
      .discover(source, { onProgress: progress.onProgress })
      .catch(
        (cause): DiscoveryFailure => ({ ok: false, message: internalError(logger, "source discovery", cause).message }),
      )
    if (discovered.ok) progress.end()
    return discovered
  })
}

/**
 * Stores the client-credentials token a discovery outside the syncs got (as `discoveredAs`) for the source now stored
 * as `sourceId`. The source stands either way: a failure is logged, and its next call asks for a token again.
 */
export const keepFirstGrant = (logins: SourceLogins, logger: Logger, discoveredAs: string, sourceId: string) =>
  Effect.promise(() =>
    logins.keepFirstGrant(discoveredAs, sourceId).catch((cause: unknown) => {
      logger.warn("the first OAuth token of a source could not be stored; its next call asks for one", {
        error: cause instanceof Error ? cause.message : String(cause),
      })
    }),
  )
