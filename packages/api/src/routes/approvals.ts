/**
 * /v1/policies and /v1/approvals: the rules that decide which tool calls need a person (or never run), and the
 * paused calls waiting for one. Both are admin: an agent's `execute` key must not approve its own calls. Deciding
 * starts the execution's resume on this server; `?wait=30s` answers once it is recorded.
 */
import * as Policy from "@switchboard/core/policy"
import * as Approvals from "@switchboard/core/approvals"
import { NotFound } from "@switchboard/core"
import { sendError } from "../http-errors.js"
import {
  approvalBody,
  approvalsBody,
  approvalsQuery,
  decideQuery,
  policiesBody,
  policyBody,
} from "../wire/approvals.js"
import type { ApprovalBody, ApprovalsBody, PoliciesBody, PolicyBody } from "../wire/approvals.js"
import { approvalViewOf, defaultPolicyText, policyViewOf } from "../wire/approval-row-views.js"
import { routeGroup } from "./route-group.js"

/** What every operation here says of who may call it. */
const adminOnly =
  "Needs `admin`: an agent's `execute` key must never decide its own calls (over MCP, a client that supports elicitation asks its person instead)."

const approvalId = { id: "the approval's `id`, as in the paused execute answer or a listing" }

export const approvalRoutes = routeGroup(({ policies, approvals }) => ({ policies, approvals }))
  .route({
    method: "get",
    path: "/v1/policies",
    scope: "admin",
    operationId: "listPolicies",
    tag: "approvals",
    summary: "The policy rules, whether approvals are on, and what applies where no rule matches",
    description:
      "A call takes the action of the most specific rule that matches it; with none, a tool that declares `destructiveHint: true` needs approval " +
      `and every other is allowed. ${adminOnly}`,
    responses: { 200: { description: "the rules", json: policiesBody } },
    handler: async (c, { policies }) =>
      c.json({
        policies: (await policies.rules()).map(policyViewOf),
        approvals: policies.approvals,
        defaultPolicy: defaultPolicyText(policies.approvals),
      } satisfies PoliciesBody),
  })
  .route({
    method: "post",
    path: "/v1/policies",
    scope: "admin",
    operationId: "addPolicy",
    tag: "approvals",
    summary: "Add a rule: the calls it matches are allowed, wait for a person's approval, or never run",
    description: `A \`block\`ed call resolves to \`ok: false\` with code \`blocked\` and never reaches its source. ${adminOnly}`,
    body: Policy.policyRequest,
    responses: { 201: { description: "added", json: policyBody } },
    handler: async (c, { policies }) => {
      const added = await policies.add(c.req.valid("json"))
      if (!added.ok) return sendError(c, added.error)
      return c.json({ policy: policyViewOf(added.value) } satisfies PolicyBody, 201)
    },
  })
  .route({
    method: "delete",
    path: "/v1/policies/:id",
    scope: "admin",
    operationId: "removePolicy",
    tag: "approvals",
    summary: "Remove a rule",
    description: `A rule from the config file comes back when the config is applied again. ${adminOnly}`,
    params: { id: "the rule's `id`, as added or listed" },
    responses: { 204: { description: "removed" } },
    errors: ["NotFound"],
    handler: async (c, { policies }) => {
      const removed = await policies.remove(c.req.param("id"))
      return removed.ok ? c.body(null, 204) : sendError(c, removed.error)
    },
  })
  .route({
    method: "get",
    path: "/v1/approvals",
    scope: "admin",
    operationId: "listApprovals",
    tag: "approvals",
    summary: "Paused calls, newest first: those waiting for a decision unless `status` says otherwise",
    description: adminOnly,
    query: approvalsQuery,
    responses: { 200: { description: "the approvals", json: approvalsBody } },
    handler: async (c, { approvals }) => {
      const { status = "pending", limit = 50 } = c.req.valid("query")
      const rows = await approvals.list(c.get("caller"), { limit, ...(status === "all" ? {} : { status }) })
      return c.json({ approvals: rows.map(approvalViewOf) } satisfies ApprovalsBody)
    },
  })
  .route({
    method: "get",
    path: "/v1/approvals/:id",
    scope: "admin",
    operationId: "getApproval",
    tag: "approvals",
    summary: "One approval: the call, its arguments as the script passed them, and its decision",
    description: adminOnly,
    params: approvalId,
    responses: { 200: { description: "the approval", json: approvalBody } },
    errors: ["NotFound"],
    handler: async (c, { approvals }) => {
      const approval = await approvals.get(c.get("caller"), c.req.param("id"))
      if (!approval) return sendError(c, new NotFound({ message: `no approval "${c.req.param("id")}"` }))
      c.set("executionId", approval.executionId)
      return c.json({ approval: approvalViewOf(approval) } satisfies ApprovalBody)
    },
  })
  .route({
    method: "post",
    path: "/v1/approvals/:id",
    scope: "admin",
    operationId: "decideApproval",
    tag: "approvals",
    summary: "Approve or decline a paused call; the run resumes at once",
    description:
      "approve: the call runs and the script goes on; decline: the call resolves to `ok: false` with code `declined` and the note, and the script goes on. " +
      "The run resumes by replay: its earlier tool calls answer from their record, without calling their sources again. " +
      `With \`wait\`, the answer comes once the resumed run was recorded (ended, or paused again), with the execution. ${adminOnly}`,
    params: approvalId,
    query: decideQuery,
    body: Approvals.decisionRequest,
    responses: { 200: { description: "decided (and, with `wait`, what the resumed run came to)", json: approvalBody } },
    errors: ["NotFound", "ApprovalConflict"],
    handler: async (c, { approvals }) => {
      const { wait } = c.req.valid("query")
      const waitMs = wait === undefined ? undefined : Approvals.parseWait(wait)
      if (waitMs && !waitMs.ok) return sendError(c, waitMs.error)
      const decided = await approvals.decide(c.get("caller"), c.req.param("id"), c.req.valid("json"))
      if (!decided.ok) return sendError(c, decided.error)
      c.set("executionId", decided.value.executionId)
      if (!waitMs) return c.json({ approval: approvalViewOf(decided.value) } satisfies ApprovalBody)
      const waited = await approvals.wait(decided.value, waitMs.value, c.req.raw.signal)
      const body: ApprovalBody = { approval: approvalViewOf(waited.approval) }
      if (waited.execution) body.execution = waited.execution
      if (waited.next) body.next = approvalViewOf(waited.next)
      return c.json(body)
    },
  })
