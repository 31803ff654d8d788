/** An approval as the API shows it: its own file, since both the execution and the approval bodies hold one. */
import { z } from "zod"

/** An approval as the API shows it: never the replay record it keeps (the script's recorded results). */
export const approvalView = z.object({
  id: z.string(),
  executionId: z.string(),
  tool: z.string().describe("the tool path the paused call names"),
  args: z.unknown().describe("the call's arguments as the script passed them"),
  reason: z.string(),
  ruleId: z.string().nullable().describe("the policy rule that asked for it; null: the default (destructiveHint)"),
  status: z.enum(["pending", "approved", "declined", "expired"]),
  note: z.string().nullable(),
  createdAt: z.int().describe("milliseconds since the epoch"),
  expiresAt: z.int().describe("milliseconds since the epoch: past it, undecided, it counts as declined"),
  decidedAt: z.int().nullable(),
  resumedAt: z.int().nullable().describe("when the resumed run was recorded (it ended, or paused again)"),
})

export type ApprovalView = z.input<typeof approvalView>
