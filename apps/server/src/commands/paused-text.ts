/**
 * What `run` and `call` print when the run paused before a call that needs a person's decision: what waits, the
 * approval's id, and the commands that decide it (on the same catalog: `--db`, or `--url`). The run's process
 * exits `EXIT_PAUSED`; deciding resumes the execution from the start, its recorded calls replayed.
 */
import { argsPreview, cutNote, escapeUnsafe } from "@switchboard/api"
import type * as Executor from "@switchboard/core/executor"
import { displayDb } from "../database/display-db.js"
import { when } from "./table.js"

/** the exit code of a command whose run paused for an approval: not 0 (no result yet), nor 1 (nothing failed) */
export const EXIT_PAUSED = 3

/** what a paused run answers (core's ExecuteResponse, the execute API's 202), as far as the text needs it */
export interface PausedAnswer {
  executionId: string
  status: "paused"
  /** `url`: the approval's page in the server's web console, when the answer came from a server that serves one */
  approval: Executor.ApprovalSummary & { url?: string }
}

export const isPaused = (response: object): response is PausedAnswer =>
  (response as { status?: unknown }).status === "paused"

/** how many characters of a paused call's arguments the text shows; `approvals show` gives them whole */
const ARGS_SHOWN = 500

/**
 * `  args      {…}`, the room shared between the fields; when something was cut, a line naming it and the command
 * that shows the whole arguments
 */
export const argsLines = (approval: { id: string; args: unknown }, on: string, room = ARGS_SHOWN) => {
  const preview = argsPreview(approval.args, room)
  const args = `  args      ${preview.text}\n`
  return preview.cut.length === 0
    ? args
    : `${args}  cut       ${cutNote(preview)}; all of them: switchboard approvals show ${approval.id}${on}\n`
}

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
 * from the environment, which the next command reads too), a password in it redacted (the flag's owner has it);
 * `decide`: those of `approvals approve|decline`, locally
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
  const { on, decide } = targetFlags(target)
  const tool = escapeUnsafe(approval.tool)
  // a server that serves the console names the approval's page there (the execute API's 202); a local catalog has none
  const page = approval.url === undefined ? "" : `  page      ${escapeUnsafe(approval.url)}\n`
  return `paused: execution ${paused.executionId} waits for a person's approval of ${tool}
  approval  ${approval.id}
  tool      ${tool}
${argsLines(approval, on)}  reason    ${escapeUnsafe(approval.reason)}
  expires   ${when(approval.expiresAt)} (undecided by then, it counts as declined)
${page}${decideLines(approval.id, decide)}the execution then runs again from the start, its calls so far answered from the record, and goes on past this one:
  switchboard executions show ${paused.executionId}${on}
`
}
