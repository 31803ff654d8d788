/**
 * What `run` and `call` print when the run paused before a call that needs a person's decision: what waits, the
 * approval's id, and the commands that decide it (on the same catalog: `--db`, or `--url`). The run's process
 * exits `EXIT_PAUSED`; deciding resumes the execution from the start, its recorded calls replayed.
 */
import type { ApprovalSummary } from "@switchboard/core"
import { displayDb } from "../display-db.js"
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

/** what names the catalog a command ran on, and whether it could start a stdio source */
export interface Target {
  db?: string
  url?: string
  "allow-stdio"?: boolean
}

/**
 * The flags that take a suggested command to the same catalog: ` --db <path>` or ` --url <url>` (empty when it came
 * from the environment, which the next command reads too), a password in it redacted (the flag's owner has it); `decide`: those of `approvals approve|decline`, locally
 * with `--allow-stdio` when the command had it, since the resume runs there and may call a stdio source again.
 */
export const targetFlags = (target: Target) => {
  const on =
    target.url !== undefined
      ? ` --url ${shellWord(displayDb(target.url))}`
      : target.db !== undefined
        ? ` --db ${shellWord(displayDb(target.db))}`
        : ""
  return { on, decide: target.url === undefined && target["allow-stdio"] ? `${on} --allow-stdio` : on }
}

/** how to approve or decline an approval, a line each */
export const decideLines = (id: string, decide: string) => `approve:  switchboard approvals approve ${id}${decide}
decline:  switchboard approvals decline ${id} --note 'why'${decide}
`

export const pausedText = (paused: PausedAnswer, target: Target) => {
  const { approval } = paused
  const args = JSON.stringify(approval.args) ?? "undefined"
  const { on, decide } = targetFlags(target)
  return `paused: execution ${paused.executionId} waits for a person's approval of ${approval.tool}
  approval  ${approval.id}
  tool      ${approval.tool}
  args      ${args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args}
  reason    ${approval.reason}
  expires   ${when(approval.expiresAt)} (undecided by then, it counts as declined)
${decideLines(approval.id, decide)}the execution then runs again from the start, its calls so far answered from the record, and goes on past this one:
  switchboard executions show ${paused.executionId}${on}
`
}
