/**
 * Retention on the Worker: the cron trigger in wrangler.jsonc calls `scheduled`, which prunes the D1 catalog with the
 * same store method the Node host runs (core's catalog/prune.ts), bounded by the vars SWITCHBOARD_RETAIN (an age,
 * "7d") and SWITCHBOARD_RETAIN_EXECUTIONS (a count). Without either, every execution is kept and it does nothing.
 * An invocation runs at most MAX_BATCHES batches; what is left goes at the next trigger.
 */
import { drizzle } from "drizzle-orm/d1"
import * as Catalog from "@switchboard/core/catalog"
import { driverMessage } from "@switchboard/core"
import type { Logger } from "@switchboard/core"
import type { Env } from "./env.js"

/**
 * Cloudflare counts D1 queries per invocation (1,000 on the paid plan); a batch is a read and a D1 batch of a few
 * deletes, so 100 batches (5,000 executions) stay well inside it whether or not each statement of a batch counts.
 */
export const MAX_BATCHES = 100

export const pruneOnSchedule = async (env: Env, now: number, logger: Logger): Promise<void> => {
  const retention = Catalog.parseRetention(
    { retain: env.SWITCHBOARD_RETAIN, retainExecutions: env.SWITCHBOARD_RETAIN_EXECUTIONS },
    { retain: "SWITCHBOARD_RETAIN", retainExecutions: "SWITCHBOARD_RETAIN_EXECUTIONS" },
  )
  if (!retention.ok) return logger.error(`retention: ${retention.message}`)
  if (!retention.policy || !env.DB) return
  try {
    const report = await Catalog.createD1CatalogStore(drizzle(env.DB)).pruneExecutions(retention.policy, {
      now,
      maxBatches: MAX_BATCHES,
    })
    if (report.deleted > 0) logger.info("retention: pruned executions", { ...report })
  } catch (cause) {
    logger.error("retention: a prune failed; the next trigger runs as usual", { error: driverMessage(cause) })
  }
}
