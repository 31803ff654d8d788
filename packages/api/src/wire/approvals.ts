/** The bodies of /v1/policies and /v1/approvals, and the answer of an execute that paused. */
import { z } from "zod"
import * as Policy from "@switchboard/core/policy"
import * as Approvals from "@switchboard/core/approvals"
import { wholeNumber } from "@switchboard/core"
import { execution } from "./executions.js"
import { approvalView } from "./approval-schema.js"

export { approvalView }
import { logEntry } from "./execute.js"

export const policyView = z.object({
  id: z.string(),
  pattern: z.string().nullable().describe("a tool path pattern (`*`: any run of characters); null: any path"),
  source: z.string().nullable().describe("a source's namespace; null: any"),
  annotation: z.enum(Policy.POLICY_ANNOTATIONS).nullable().describe("a hint the tool declares true; null: any"),
  action: z.enum(Policy.POLICY_ACTIONS),
  reason: z.string().nullable(),
  origin: z.enum(["api", "config"]).describe("config: from the server's config file, replaced whenever it is applied"),
  createdAt: z.int().describe("milliseconds since the epoch"),
})

export const policyBody = z.object({ policy: policyView })
export const policiesBody = z.object({
  policies: z.array(policyView),
  approvals: z
    .boolean()
    .describe("false: approvals are off on this server, and what would need one is allowed (`block` still blocks)"),
  defaultPolicy: z.string().describe("what applies where no rule matches"),
})

export const approvalsQuery = z.object({
  status: z
    .enum(["pending", "approved", "declined", "expired", "all"], {
      error: '"status" must be pending, approved, declined, expired or all',
    })
    .optional()
    .describe("default pending"),
  limit: wholeNumber("limit", { min: 1, max: 200 }).optional().describe("at most this many, newest first (default 50)"),
})

export const decideQuery = z.object({
  wait: z
    .string()
    .optional()
    .describe(
      `wait up to this long (30s, 500ms, 2m; at most ${Approvals.WAIT_MAX_MS / 1000}s) for the resumed run to end, and answer it too`,
    ),
})

export const approvalsBody = z.object({ approvals: z.array(approvalView) })
export const approvalBody = z.object({
  approval: approvalView,
  execution: execution
    .optional()
    .describe("with ?wait: the execution once its resumed run was recorded (ended, or paused again)"),
  next: approvalView.optional().describe("with ?wait: the approval the run paused at next, when it paused again"),
})

/**
 * POST /v1/execute's 202: the run paused before a call that needs a person's decision. Nothing failed and nothing
 * ended, so there is no `ok`: `status` is what a client tells it apart by.
 */
export const executePaused = z.object({
  executionId: z.string(),
  stored: z.literal(true),
  status: z.literal("paused").describe("the run waits for a person's decision; it has neither failed nor ended"),
  message: z.string().describe("what waits, in words"),
  approval: z.object({
    id: z.string(),
    tool: z.string(),
    args: z.unknown(),
    reason: z.string(),
    expiresAt: z.int().describe("milliseconds since the epoch"),
    url: z
      .string()
      .optional()
      .describe(
        "the approval's page in the server's web console, where a person decides it (when the server serves one)",
      ),
  }),
  logs: z.array(logEntry),
})

export type PolicyView = z.input<typeof policyView>
export type ApprovalsBody = z.input<typeof approvalsBody>
export type ApprovalBody = z.input<typeof approvalBody>
export type PoliciesBody = z.input<typeof policiesBody>
export type PolicyBody = z.input<typeof policyBody>
export type ExecutePausedBody = z.input<typeof executePaused>
