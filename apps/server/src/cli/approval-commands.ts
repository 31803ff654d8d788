/** `policies` and `approvals`: which calls need a person's decision, and the calls that wait for one. */
import type { Command } from "commander"
import { addFlags, examples, runs } from "./define.js"
import type { Outcome } from "./define.js"
import { approvalsListFlags, decideFlags, policiesAddFlags } from "./command-flags.js"
import { targetFlags } from "./flags.js"

const loadPolicies = async () => import("../commands/policies.js")
const loadApprovals = async () => import("../commands/approvals.js")

export const addApprovalCommands = (program: Command, outcome: Outcome) => {
  const policies = program
    .command("policies")
    .description("the rules that decide which tool calls need a person's approval, and which never run (/v1/policies)")
  examples(policies, [
    ["switchboard policies add --pattern 'demo.*' --action require_approval"],
    ["switchboard policies list"],
  ])
  examples(
    addFlags(
      policies.command("list").description("the rules, and what applies where none matches"),
      targetFlags,
    ).action(runs(outcome, async () => (await loadPolicies()).policiesListCommand)),
    [["switchboard policies list"]],
  )
  examples(
    addFlags(policies.command("add").description("add a rule"), policiesAddFlags).action(
      runs(outcome, async () => (await loadPolicies()).policiesAddCommand),
    ),
    [
      [
        "switchboard policies add --pattern demo.greet --action require_approval --reason 'a person reads each greeting'",
      ],
      ["switchboard policies add --annotation destructiveHint --action block"],
    ],
  )
  examples(
    addFlags(policies.command("remove").description("remove a rule").argument("<id>"), targetFlags).action(
      runs(outcome, async () => (await loadPolicies()).policiesRemoveCommand),
    ),
    [["switchboard policies remove <id>"]],
  )

  const approvals = program
    .command("approvals")
    .description("calls paused for a person's decision (/v1/approvals); deciding one resumes its execution")
  examples(approvals, [
    ["switchboard approvals list"],
    ["switchboard approvals approve <id> --allow-stdio"],
    ["switchboard approvals decline <id> --note 'not this one'"],
  ])
  examples(
    addFlags(approvals.command("list").description("the approvals, newest first"), approvalsListFlags).action(
      runs(outcome, async () => (await loadApprovals()).approvalsListCommand),
    ),
    [["switchboard approvals list"], ["switchboard approvals list --status all --json"]],
  )
  examples(
    addFlags(
      approvals
        .command("show")
        .description(
          "one approval: every field, and the call's arguments whole (indented JSON, unsafe characters escaped)",
        )
        .argument("<id>", "the approval's id"),
      targetFlags,
    ).action(runs(outcome, async () => (await loadApprovals()).approvalsShowCommand)),
    [["switchboard approvals show <id>"], ["switchboard approvals show <id> --json"]],
  )
  for (const decision of ["approve", "decline"] as const)
    examples(
      addFlags(
        approvals
          .command(decision)
          .description(
            `${decision} a paused call; locally its execution resumes in this command, which waits for its end; on a server (--url) it resumes there`,
          )
          .argument("<id>", "the approval's id"),
        decideFlags,
      ).action(runs(outcome, async () => (await loadApprovals())[`${decision}Command`])),
      [
        [
          `switchboard approvals ${decision} <id>${decision === "decline" ? " --note 'not this one'" : ""} --allow-stdio`,
        ],
        [`switchboard approvals ${decision} <id> --url http://127.0.0.1:4747 --wait 30s`],
      ],
    )
}
