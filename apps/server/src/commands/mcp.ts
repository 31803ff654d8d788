/** `switchboard mcp`: the MCP server over stdio, on the catalog in --db. */
import { parseArgs } from "node:util"
import { approvalFlagOptions, approvalsFromFlags } from "../approval-flags.js"
import { runtimeFlagOptions, tuning } from "../runtime-flags.js"
import { stdioAllowance, stdioFlagOptions } from "../stdio-flags.js"
import { dbOption, existingCatalog, fail, parseDuration } from "./common.js"
import { usage } from "./usage.js"

export const mcpCommand = async (args: string[]) => {
  const { values } = parseArgs({
    args,
    options: {
      ...dbOption,
      ...stdioFlagOptions,
      "sync-ttl": { type: "string", default: "15m" },
      help: { type: "boolean", default: false },
      ...runtimeFlagOptions,
      ...approvalFlagOptions,
    },
  })
  // stdout is the protocol stream: help goes to stderr here
  if (values.help) return void process.stderr.write(usage())
  const approvals = approvalsFromFlags(values)
  if (!approvals.ok) return fail(approvals.message)
  // loaded here, not with the bundle: serve and run share it, and the MCP SDK's server costs a start ~60 ms
  const { serveMcpStdio } = await import("../mcp-stdio.js")
  const mcp = await serveMcpStdio({
    db: existingCatalog(values.db),
    allowStdio: stdioAllowance(values),
    syncTtlMs: parseDuration(values["sync-ttl"]),
    ...tuning(values),
    // a long-running process: it keeps the sweep that resumes approvals past their deadline
    ...approvals.options,
  })
  if (approvals.notice) process.stderr.write(`switchboard: ${approvals.notice}\n`)
  const stop = async () => {
    await mcp.close()
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  await mcp.ended
  process.exit(0)
}
