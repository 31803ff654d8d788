/**
 * /v1/policies and /v1/approvals: the rules that decide which tool calls need a person (or never run), and the
 * paused calls waiting for one. Both are admin (../scopes.ts): an agent's `execute` key must not approve its own
 * calls. Deciding starts the execution's resume on this server; `?wait=30s` answers once it is recorded.
 */
import { Hono } from "hono"
import { NotFound, decisionRequest, parseWait, policyRequest } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { sendError } from "../http-errors.js"
import { jsonBody, query } from "../validate.js"
import { approvalsQuery, decideQuery } from "../wire/approvals.js"
import type { ApprovalBody, ApprovalsBody, PoliciesBody, PolicyBody } from "../wire/approvals.js"
import { approvalViewOf, defaultPolicyText, policyViewOf } from "../wire/approval-views.js"

export const policyRoutes = ({ policies }: AppServices) =>
  new Hono<AppEnv>()
    .get("/", async (c) =>
      c.json({
        policies: (await policies.rules()).map(policyViewOf),
        approvals: policies.approvals,
        defaultPolicy: defaultPolicyText(policies.approvals),
      } satisfies PoliciesBody),
    )
    .post("/", jsonBody(policyRequest), async (c) => {
      const added = await policies.add(c.req.valid("json"))
      if (!added.ok) return sendError(c, added.error)
      return c.json({ policy: policyViewOf(added.value) } satisfies PolicyBody, 201)
    })
    .delete("/:id", async (c) => {
      const removed = await policies.remove(c.req.param("id"))
      return removed.ok ? c.body(null, 204) : sendError(c, removed.error)
    })

export const approvalRoutes = ({ approvals }: AppServices) =>
  new Hono<AppEnv>()
    .get("/", query(approvalsQuery), async (c) => {
      const { status = "pending", limit = 50 } = c.req.valid("query")
      const rows = await approvals.list(c.get("caller"), { limit, ...(status === "all" ? {} : { status }) })
      return c.json({ approvals: rows.map(approvalViewOf) } satisfies ApprovalsBody)
    })
    .get("/:id", async (c) => {
      const approval = await approvals.get(c.get("caller"), c.req.param("id"))
      if (!approval) return sendError(c, new NotFound({ message: `no approval "${c.req.param("id")}"` }))
      c.set("executionId", approval.executionId)
      return c.json({ approval: approvalViewOf(approval) } satisfies ApprovalBody)
    })
    .post("/:id", query(decideQuery), jsonBody(decisionRequest), async (c) => {
      const { wait } = c.req.valid("query")
      const waitMs = wait === undefined ? undefined : parseWait(wait)
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
    })
