/**
 * The probes an orchestrator asks without a key: `/healthz`, liveness (the process answers; it touches nothing),
 * and `/readyz`, readiness (the catalog can be read and written now). Neither is behind the key, the scope table
 * or the request guard: a load balancer sends no key, and names the server by whatever address it has.
 */
import type { Context } from "hono"
import { DatabaseFault, driverMessage } from "@switchboard/core"
import type { CatalogStore, Logger } from "@switchboard/core"
import type { AppEnv } from "./env.js"

export const PROBE_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz"])

/** a probe that waits longer than this answers 503: a database that hangs is as unready as one that refuses */
export const READY_TIMEOUT_MS = 2_000

export const readiness = ({ store, logger }: { store: Pick<CatalogStore, "checkReadiness">; logger: Logger }) => {
  /** the last reason logged: a probe every few seconds logs a fault once, and its end once */
  let lastReason: string | undefined
  return async (c: Context<AppEnv>) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DatabaseFault({ message: `the database did not answer within ${READY_TIMEOUT_MS} ms` })),
        READY_TIMEOUT_MS,
      )
    })
    try {
      await Promise.race([store.checkReadiness(), late])
      if (lastReason !== undefined) logger.info("ready again: the catalog can be read and written", { was: lastReason })
      lastReason = undefined
      return c.json({ ok: true })
    } catch (cause) {
      const reason = `the catalog cannot be read and written: ${driverMessage(cause)}`
      if (reason !== lastReason) logger.error("not ready", { reason })
      lastReason = reason
      return c.json({ ok: false, reason }, 503)
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }
}
