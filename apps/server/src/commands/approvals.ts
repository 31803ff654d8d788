/**
 * `switchboard approvals list|show|approve|decline`: calls paused for a person's decision, as `/v1/approvals` shows them,
 * in the local database (--db) or on a running server (--url, an admin key). Deciding resumes the execution: on
 * the server, which answers at once (or, with `--wait 30s`, once the resumed run is recorded); locally, in this
 * command's own process, which waits for the resumed run to be recorded before it exits, and starts a stdio source
 * the run calls only with `--allow-stdio`, as `run` and `call` do. `--json`: the API's answer.
 */
import { argsPreview, escapeUnsafe, safeJson } from "@switchboard/api"
import type {
  ApprovalStatusFilter,
  ApprovalView,
  DecisionAnswer,
  DecisionRequest,
} from "../catalog-client/catalog-client.js"
import type { approvalsListFlags, decideFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import type { targetFlags as targetFlagSpecs } from "../cli/flags.js"
import { printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"
import { argsLines, decideLines, targetFlags } from "./paused-text.js"
import { table, when } from "./table.js"

const STATUSES: readonly ApprovalStatusFilter[] = ["pending", "approved", "declined", "expired", "all"]
const MAX_LIST = 200

/** a call's arguments on one line, their room shared between the fields (the table names the cut ones by their start) */
const argsText = (args: unknown, most: number) => argsPreview(args, most).text

/** One approval for a person: every field, and the arguments whole, indented JSON with unsafe characters escaped. */
const approvalText = (a: ApprovalView) => {
  const rows: [string, string][] = [
    ["approval", a.id],
    ["status", a.status],
    ["tool", escapeUnsafe(a.tool)],
    ["execution", a.executionId],
    ["reason", escapeUnsafe(a.reason)],
    ["rule", a.ruleId ?? "the default policy"],
    ["created", when(a.createdAt)],
    ["expires", when(a.expiresAt)],
    ["decided", when(a.decidedAt)],
    ...(a.note === null ? [] : ([["note", escapeUnsafe(a.note)]] as [string, string][])),
  ]
  const head = rows.map(([name, value]) => `${name.padEnd(10)}${value}\n`).join("")
  return `${head}args\n${safeJson(a.args, 2)}\n`
}

/** What the decision came to, for a person: the decision, then the execution's end when it is known. */
const decisionText = (answer: DecisionAnswer, { on, decide }: ReturnType<typeof targetFlags>) => {
  const { approval, execution, next } = answer
  const verb = approval.status === "approved" ? "approved" : "declined"
  const head = `${verb} ${approval.id}: ${escapeUnsafe(approval.tool)} ${argsText(approval.args, 200)} (execution ${approval.executionId})\n`
  const show = `switchboard executions show ${approval.executionId}${on}`
  if (!execution)
    return `${head}${approval.resumedAt === null ? `the execution resumes on the server; its end: ${show}` : `its end: ${show}`}\n`
  if (execution.status === "paused" && next)
    return `${head}execution ${execution.id} paused again, at approval ${next.id}: ${escapeUnsafe(next.tool)} (${escapeUnsafe(next.reason)})
${argsLines(next, on)}${decideLines(next.id, decide)}`
  if (execution.status === "error")
    return `${head}execution ${execution.id}: error (${execution.errorCode}): ${execution.errorMessage ?? ""}\n`
  return `${head}execution ${execution.id}: ${execution.status}; its result: switchboard executions output ${execution.id}${on}\n`
}

export const approvalsListCommand = async ({ values }: CommandInput<typeof approvalsListFlags>) => {
  const status = (values.status ?? "pending") as ApprovalStatusFilter
  if (!STATUSES.includes(status)) usageError(`--status must be one of ${STATUSES.join(", ")} (got "${values.status}")`)
  const limit = values.limit === undefined ? 50 : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST)
    usageError(`--limit must be a whole number from 1 to ${MAX_LIST} (got "${values.limit}")`)
  return withCatalog(values, async (client) => {
    const approvals = await client.listApprovals({ status, limit })
    if (values.json) printJson({ approvals })
    else
      process.stdout.write(
        table(
          ["ID", "STATUS", "TOOL", "ARGS", "EXECUTION", "EXPIRES", "REASON"],
          approvals.map((a) => [
            a.id,
            a.status,
            a.tool,
            argsText(a.args, 100),
            a.executionId,
            when(a.expiresAt),
            a.reason,
          ]),
        ),
      )
    return 0
  })
}

export const approvalsShowCommand = async ({ values, args }: CommandInput<typeof targetFlagSpecs>) =>
  withCatalog(values, async (client) => {
    const approval = await client.getApproval(args[0]!)
    if (values.json) printJson({ approval })
    else process.stdout.write(approvalText(approval))
    return 0
  })

const decide =
  (decision: DecisionRequest["decision"]) =>
  async ({ values, args }: CommandInput<typeof decideFlags>) => {
    const request: DecisionRequest = {
      decision,
      ...(values.note === undefined ? {} : { note: values.note }),
      ...(values.wait === undefined ? {} : { wait: values.wait }),
    }
    // the flags that named the catalog, for the commands the text suggests
    const target = targetFlags(values)
    return withCatalog(values, async (client) => {
      const answer = await client.decideApproval(args[0]!, request)
      if (values.json) printJson(answer)
      else process.stdout.write(decisionText(answer, target))
      return 0
    })
  }

export const approveCommand = decide("approve")
export const declineCommand = decide("decline")
