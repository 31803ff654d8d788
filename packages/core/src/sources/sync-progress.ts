/**
 * A sync's progress: each page of a source's listing goes to whoever asked to follow the sync (a CLI's progress line,
 * through `sources.add` / `sources.sync`), and to the log once the sync has taken a while. A sync of a few pages
 * logs nothing; one still listing after `everyMs` logs a line then and every `everyMs` after, and a last line when it
 * has read every page.
 */
import type { Logger } from "../errors.js"
import type { DiscoveryProgress } from "../seams.js"

/** how long a sync runs before its progress is logged, and then between lines */
export const SYNC_PROGRESS_LOG_MS = 1_000

export type ProgressListener = (progress: DiscoveryProgress) => void

export type SyncProgress = ReturnType<typeof syncProgress>

/** What a caller of `add` or `sync` may follow: each page of the source's listing as it is read (a CLI's progress line). */
export interface SyncOptions {
  onProgress?: ProgressListener
}

/** A namespace's sync progress, heard by `listeners` (the service binds its logger, clock and interval). */
export type ProgressOf = (namespace: string, listeners: () => Iterable<ProgressListener>) => SyncProgress

export interface SyncProgressOptions {
  logger: Logger
  now: () => number
  everyMs: number
}

/** `listeners` is asked at every page: one added while the sync runs hears the pages after. */
export const syncProgress = (
  { logger, now, everyMs }: SyncProgressOptions,
  namespace: string,
  listeners: () => Iterable<ProgressListener>,
) => {
  const started = now()
  let loggedAt = started
  let logged = false
  let last: DiscoveryProgress | undefined
  return {
    onProgress(progress: DiscoveryProgress) {
      last = progress
      for (const listener of listeners()) {
        try {
          listener(progress)
        } catch {
          // a listener that fails (a closed terminal) must not fail the sync
        }
      }
      // a single page is the whole listing: nothing to follow
      if (progress.pages > 1 && now() - loggedAt >= everyMs) {
        loggedAt = now()
        logged = true
        logger.info("sync progress", { namespace, pages: progress.pages, tools: progress.tools })
      }
    },
    /** after the listing: a last line, where progress was logged */
    end() {
      if (logged && last)
        logger.info("sync read every page", { namespace, pages: last.pages, tools: last.tools, ms: now() - started })
    },
  }
}
