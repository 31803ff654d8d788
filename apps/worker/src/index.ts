/**
 * The Cloudflare Worker: the same API, /mcp endpoint and result contract as the Node host, on D1. Each request
 * builds its host (./host.ts), is answered by the hono app from @switchboard/api, and releases the host's
 * connections once the response is made; QuickJS, the config and its secret box (./env.ts) are kept per isolate.
 */
import { internalError } from "@switchboard/core"
import { ensureAdminKey } from "./admin-key.js"
import { readConfig } from "./env.js"
import type { Env } from "./env.js"
import { withDeclaredLength } from "./declared-length.js"
import { buildRequestHost } from "./host.js"
import { consoleLogger } from "./logger.js"
import { isolateRuntime } from "./quickjs.js"
import { pruneOnSchedule } from "./retention.js"
import { resumeDueApprovals } from "./approvals.js"

export type { Env } from "./env.js"

const errorResponse = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status })

export default {
  async fetch(request: Request, env: Env, context: ExecutionContext): Promise<Response> {
    const config = readConfig(env)
    if (!config.ok) {
      if (new URL(request.url).pathname === "/healthz") return Response.json({ ok: true })
      consoleLogger.error(config.message)
      return errorResponse(503, "not_configured", config.message)
    }
    let close: (() => Promise<void>) | undefined
    try {
      const host = await buildRequestHost(env, config.config, await isolateRuntime())
      // a decision's resume runs past the answer (the route answers before it ends, unless ?wait): the host is
      // released once it is recorded
      close = () => host.approvals.settled().then(host.close)
      await ensureAdminKey(host.store, config.config.adminKey, Date.now())
      return withDeclaredLength(await host.app.fetch(request))
    } catch (cause) {
      const where = `${request.method} ${new URL(request.url).pathname}`
      return errorResponse(500, "internal_error", internalError(consoleLogger, where, cause).message)
    } finally {
      if (close) context.waitUntil(close())
    }
  },

  /**
   * the cron trigger (wrangler.jsonc): retention, when SWITCHBOARD_RETAIN or SWITCHBOARD_RETAIN_EXECUTIONS is set,
   * and the approvals that are due (expired ones, which count as declined, and resumes a request began and left)
   */
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    await pruneOnSchedule(env, controller.scheduledTime, consoleLogger)
    await resumeDueApprovals(env, consoleLogger)
  },
} satisfies ExportedHandler<Env>
