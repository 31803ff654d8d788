/**
 * Approvals on the Worker: no fiber outlives a request here, so the cron trigger (wrangler.jsonc) takes on the
 * resumes that are due, as the Node host's sweep does every 10 s: approvals past their deadline (a decline) and
 * resumes a request began and did not finish. The host is built as for a request and released once they are
 * recorded. A decision made through the API resumes in its own request (index.ts waits for it before releasing).
 */
import { driverMessage, internalError } from "@switchboard/core"
import type { Logger } from "@switchboard/core"
import { readConfig } from "./env.js"
import type { Env } from "./env.js"
import { buildRequestHost } from "./host.js"
import { isolateRuntime } from "./quickjs.js"

export const resumeDueApprovals = async (env: Env, logger: Logger): Promise<void> => {
  const config = readConfig(env)
  if (!config.ok || !env.DB) return
  let host: Awaited<ReturnType<typeof buildRequestHost>> | undefined
  try {
    host = await buildRequestHost(env, config.config, await isolateRuntime())
    const taken = await host.approvals.sweep()
    if (taken > 0) logger.info("approvals: resuming executions whose decision is due", { resumes: taken })
    await host.approvals.settled()
  } catch (cause) {
    if (host) internalError(logger, "approvals sweep", cause)
    else logger.error("approvals: the host could not be built for a sweep", { error: driverMessage(cause) })
  } finally {
    await host?.close()
  }
}
