/** `switchboard mcp`: the MCP server over stdio, on the catalog in --db. */
import { approvalsFromFlags } from "../flags/approval-flags.js"
import type { CommandInput } from "../cli/define.js"
import type { mcpFlags } from "../cli/command-flags.js"
import { tuning } from "../flags/runtime-flags.js"
import { stdioAllowance } from "../flags/stdio-flags.js"
import { defaultDb, existingCatalog, fail, parseDuration } from "./common.js"

export const mcpCommand = async ({ values }: CommandInput<typeof mcpFlags>) => {
  const approvals = approvalsFromFlags(values)
  if (!approvals.ok) return fail(approvals.message)
  // loaded here, not with the bundle: serve and run share it, and the MCP SDK's server is slow to load
  const { serveMcpStdio } = await import("../serving/mcp-stdio.js")
  const mcp = await serveMcpStdio({
    db: existingCatalog(values.db ?? defaultDb()),
    allowStdio: stdioAllowance(values),
    syncTtlMs: parseDuration(values["sync-ttl"]),
    ...tuning(values),
    // a long-running process: it keeps the sweep that resumes approvals past their deadline
    ...approvals.options,
  })
  if (approvals.notice) process.stderr.write(`switchboard: ${approvals.notice}\n`)
  const stopped = new Promise<void>((resolve) => {
    const stop = () => void mcp.close().then(resolve)
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
  })
  await Promise.race([mcp.ended, stopped])
  return 0
}
