/**
 * Rows of the local catalog as the API shows them (the api's routes/approvals.ts, whose index does not export its
 * views): a policy rule, and an approval without its replay record. Typed against the API's own answers, so a field
 * the API adds or renames fails to compile here.
 */
import { DEFAULT_ALLOW_REASON, DEFAULT_APPROVAL_REASON } from "@switchboard/core"
import type { ApprovalRow, PolicyRow } from "@switchboard/core"
import type { ApprovalView, PoliciesAnswer, PolicyView } from "./catalog-client.js"

export const policyView = (row: PolicyRow): PolicyView => ({
  id: row.id,
  pattern: row.pattern,
  source: row.source,
  annotation: row.annotation as PolicyView["annotation"],
  action: row.action,
  reason: row.reason,
  origin: row.origin,
  createdAt: row.createdAt,
})

export const approvalView = (row: ApprovalRow): ApprovalView => ({
  id: row.id,
  executionId: row.executionId,
  tool: row.toolPath,
  args: row.args as ApprovalView["args"],
  reason: row.reason,
  ruleId: row.ruleId,
  status: row.status,
  note: row.note,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  decidedAt: row.decidedAt,
  resumedAt: row.resumedAt,
})

/**
 * A local catalog has no server, so no server option: what `run` and `call` on it do, approvals on (as
 * `GET /v1/policies` on a server started without --no-approvals says it).
 */
export const localPolicies = (rows: readonly PolicyRow[]): PoliciesAnswer => ({
  policies: rows.map(policyView),
  approvals: true,
  defaultPolicy: `${DEFAULT_APPROVAL_REASON} requires approval; ${DEFAULT_ALLOW_REASON}: allowed`,
})
