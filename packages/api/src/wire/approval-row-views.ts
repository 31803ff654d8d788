/**
 * Stored policy rules and approvals as the API shows them: one definition, for the routes (../routes/approvals.ts)
 * and for the CLI's local catalog, which answers as a server would. No hono here, so the CLI's bundle takes only this.
 */
import type * as Catalog from "@switchboard/core/catalog"
import type { PolicyView } from "./approvals.js"
import type { ApprovalView } from "./approval-schema.js"

export const policyViewOf = (row: Catalog.PolicyRow): PolicyView => ({
  id: row.id,
  pattern: row.pattern,
  source: row.source,
  annotation: row.annotation as PolicyView["annotation"],
  action: row.action,
  reason: row.reason,
  origin: row.origin,
  createdAt: row.createdAt,
})

/** An approval without its replay record (the script's recorded results are the execution's data, not the approver's). */
export const approvalViewOf = (row: Catalog.ApprovalRow): ApprovalView => ({
  id: row.id,
  executionId: row.executionId,
  tool: row.toolPath,
  args: row.args,
  reason: row.reason,
  ruleId: row.ruleId,
  status: row.status,
  note: row.note,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  decidedAt: row.decidedAt,
  resumedAt: row.resumedAt,
})

export const defaultPolicyText = (approvals: boolean) =>
  approvals
    ? "a tool that declares destructiveHint: true requires approval; any other tool is allowed"
    : "approvals are off on this server: every call a rule does not block is allowed"
