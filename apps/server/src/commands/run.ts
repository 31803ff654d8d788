/**
 * `switchboard run <file|->`: one script against the catalog (the local database, or a server with `--url`), its
 * whole result on stdout, however long: a person at a terminal, a pipe or a file gets all of it. `--model-text`
 * prints what a model is shown instead: past the inline cap the first lines, then where to read the rest, named as
 * the command that reads it (`switchboard executions output <id>`). A failed run prints its error with the script's
 * line and column, exit 1. A run that pauses before a call that needs a person's approval prints what waits and how
 * to decide it (./paused-text.ts), and exits 3. `--json`: what `POST /v1/execute` answers.
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import * as Render from "@switchboard/core/render"
import { createHost } from "../compose.js"
import { approvalsFromFlags } from "../flags/approval-flags.js"
import type { ApprovalSettings } from "../flags/approval-flags.js"
import type { CallResponse } from "../catalog-client/catalog-client.js"
import type { CommandInput } from "../cli/define.js"
import { approvalFlags, runtimeFlags } from "../cli/flags.js"
import type { runFlags } from "../cli/command-flags.js"
import { tuning } from "../flags/runtime-flags.js"
import { stdioAllowance } from "../flags/stdio-flags.js"
import { asLine, catalogTarget, printJson, withClient } from "./catalog-place.js"
import type { CatalogTarget } from "./catalog-place.js"
import { fail } from "./common.js"
import { EXIT_PAUSED, isPaused, pausedText, targetFlags } from "./paused-text.js"

type Values = CommandInput<typeof runFlags>["values"]

/** what a run answers, and the stored text of its result when the answer's text was cut */
interface Ran {
  response: CallResponse
  stored: (id: string) => Promise<string>
}

const runLocally = async (
  db: string,
  code: string,
  values: Values,
  approvals: ApprovalSettings,
  report: (ran: Ran) => Promise<number>,
) => {
  const host = await createHost({
    db,
    allowStdio: stdioAllowance(values),
    // one script: one worker unless --workers says otherwise
    workers: 1,
    ...tuning(values),
    ...approvals,
    // it lives for one script: resuming other executions' approvals here would be cut short at its exit
    approvalSweepMs: null,
  })
  try {
    const response = await Effect.runPromise(host.executor.execute({ code }))
    return await report({
      response,
      stored: async (id) => (await host.store.getExecution(id))?.resultText ?? "",
    })
  } finally {
    await host.close()
  }
}

/** `<file>:<line>:<column>` of a failed run, when the error has a place in the script */
const place = (file: string, error: { line?: number; column?: number }) =>
  error.line === undefined
    ? ""
    : ` at ${file === "-" ? "<stdin>" : file}:${error.line}${error.column === undefined ? "" : `:${error.column}`}`

export const runCommand = async ({ values, args, given }: CommandInput<typeof runFlags>) => {
  const file = args[0] ?? fail("run needs a script file, or - to read stdin")
  // checked before anything is opened
  const approvals = approvalsFromFlags(values)
  if (!approvals.ok) return fail(approvals.message)
  // a server applies its own limits and approval settings
  const localOnly = [...Object.keys(runtimeFlags), ...Object.keys(approvalFlags)].filter((flag) => given.has(flag))
  const target: CatalogTarget = catalogTarget(values, localOnly)
  const code = readFileSync(file === "-" ? 0 : file, "utf8")
  // the catalog is named to the next command only when a flag named it: the environment is read there too
  const named = {
    ...(target.kind === "local" && values.db !== undefined ? { db: target.db } : {}),
    ...(target.kind === "remote" && values.url !== undefined ? { url: target.url } : {}),
    "allow-stdio": values["allow-stdio"],
  }
  const { on } = targetFlags(named)
  const readOn = ({ executionId, offset, charOffset }: Render.ReadOn) =>
    `Read the rest with switchboard executions output ${executionId}${on} --offset ${offset}` +
    `${charOffset === undefined ? "" : ` --char-offset ${charOffset}`} --limit 200, ` +
    `all of it with switchboard executions output ${executionId}${on}; search it with --grep <regex>`

  const report = async ({ response, stored }: Ran) => {
    if (values.json) {
      // what POST /v1/execute answers (a paused run: its 202 body), the text as cut for a model
      printJson(response)
      return isPaused(response) ? EXIT_PAUSED : response.ok ? 0 : 1
    }
    for (const log of response.logs) process.stderr.write(`[${log.level}] ${log.message}\n`)
    if (isPaused(response)) {
      process.stderr.write(pausedText(response, named))
      return EXIT_PAUSED
    }
    if (response.warning !== undefined) process.stderr.write(`warning: ${response.warning}\n`)
    if (!response.ok) {
      process.stderr.write(`error (${response.error.code})${place(file, response.error)}: ${response.error.message}\n`)
      return 1
    }
    // the text was cut for a model: the whole of it is the stored record's (a record that could not be stored says so)
    const cut = response.truncated !== undefined && response.executionId !== undefined
    const whole = cut ? await stored(response.executionId!) : response.text
    const text =
      values["model-text"] && cut
        ? Render.inlineText(whole, { executionId: response.executionId!, cap: Render.DEFAULT_INLINE_CAP, readOn }).text
        : whole
    process.stdout.write(asLine(text))
    return 0
  }

  if (target.kind === "local") return runLocally(target.db, code, values, approvals.options, report)
  const { openRemoteClient } = await import("../catalog-client/remote-client.js")
  const done = await withClient(openRemoteClient(target.url), async (client) =>
    report({ response: await client.execute(code), stored: (id) => client.readOutput(id) }),
  )
  return done.ok ? done.value : done.code
}
