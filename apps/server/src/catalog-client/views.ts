/**
 * Rows of the local catalog as the API shows them: the api's own views (wire/approval-row-views.ts), typed against the
 * CLI's answers, so a field the API adds or renames fails to compile here.
 */
import { approvalViewOf, defaultPolicyText, policyViewOf } from "@switchboard/api"
import type * as Catalog from "@switchboard/core/catalog"
import type { ApprovalView, PoliciesAnswer, PolicyView } from "./catalog-client.js"

export const policyView: (row: Catalog.PolicyRow) => PolicyView = policyViewOf
// the client's types come through hono's JSON typing, which reads `unknown` as JSONValue
export const approvalView = (row: Catalog.ApprovalRow): ApprovalView => approvalViewOf(row) as ApprovalView

/**
 * A local catalog has no server, so no server option: what `run` and `call` on it do, approvals on (as
 * `GET /v1/policies` on a server started without --no-approvals says it).
 */
export const localPolicies = (rows: readonly Catalog.PolicyRow[]): PoliciesAnswer => ({
  policies: rows.map(policyView),
  approvals: true,
  defaultPolicy: defaultPolicyText(true),
})
