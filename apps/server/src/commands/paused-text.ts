/**
 * What `run` and `call` print when the run paused before a call that needs a person's decision: what waits, the
 * approval's id, and the commands that decide it (on the same catalog: `--db`, or `--url`). The run's process
 * exits `EXIT_PAUSED`; deciding resumes the execution from the start, its recorded calls replayed.
 */
import type { ApprovalSummary } from "@switchboard/core"
import { when } from "./table.js"

/** the exit code of a command whose run paused for an approval: not 0 (no result yet), nor 1 (nothing failed) */
export const EXIT_PAUSED = 3

/** what a paused run answers (core's ExecuteResponse, the execute API's 202), as far as the text needs it */
export interface PausedAnswer {
  executionId: string
  status: "paused"
  approval: ApprovalSummary
}

export const isPaused = (response: object): response is PausedAnswer =>
  (response as { status?: unknown }).status === "paused"

const ARGS_SHOWN = 500

/** a flag's value as a shell reads it back */
const shellWord = (text: string) => (/^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)

/** `--db <path>` or `--url <url>`: where the decision is to be taken */
export const targetFlags = (target: { db?: string; url?: string }) =>
  target.url !== undefined
    ? `--url ${shellWord(target.url)}`
    : target.db !== undefined
      ? `--db ${shellWord(target.db)}`
      : ""

export const pausedText = (paused: PausedAnswer, target: string) => {
  const { approval } = paused
  const args = JSON.stringify(approval.args) ?? "undefined"
  const on = target === "" ? "" : ` ${target}`
  return `paused: execution ${paused.executionId} waits for a person's approval of ${approval.tool}
  approval  ${approval.id}
  tool      ${approval.tool}
  args      ${args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args}
  reason    ${approval.reason}
  expires   ${when(approval.expiresAt)} (undecided by then, it counts as declined)
approve:  switchboard approvals approve ${approval.id}${on}
decline:  switchboard approvals decline ${approval.id} --note 'why'${on}
the execution then runs again from the start, its calls so far answered from the record, and goes on past this one:
  switchboard executions show ${paused.executionId}${on}
`
}
