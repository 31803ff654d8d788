/**
 * `switchboard run <file|->`: one script against the catalog, its result on stdout. A run that pauses before a call
 * that needs a person's approval prints what waits and how to decide it (./paused-text.ts), and exits 3.
 */
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { createHost } from "../compose.js"
import { approvalFlagOptions, approvalsFromFlags } from "../approval-flags.js"
import { runtimeFlagOptions, tuning } from "../runtime-flags.js"
import { stdioAllowance, stdioFlagOptions } from "../stdio-flags.js"
import { dbOption, existingCatalog, fail } from "./common.js"
import { EXIT_PAUSED, isPaused, pausedText } from "./paused-text.js"

export const runCommand = async (args: string[]) => {
  const { values, positionals, tokens } = parseArgs({
    args,
    tokens: true,
    options: {
      ...dbOption,
      ...stdioFlagOptions,
      ...runtimeFlagOptions,
      ...approvalFlagOptions,
    },
    allowPositionals: true,
  })
  const dbGiven = tokens.some((token) => token.kind === "option" && token.name === "db")
  const file = positionals[0] ?? fail("run needs a script file, or - to read stdin")
  const approvals = approvalsFromFlags(values)
  if (!approvals.ok) return fail(approvals.message)
  const db = existingCatalog(values.db)
  const code = readFileSync(file === "-" ? 0 : file, "utf8")
  const host = await createHost({
    db,
    allowStdio: stdioAllowance(values),
    // one script: one worker unless --workers says otherwise
    workers: 1,
    ...tuning(values),
    ...approvals.options,
    // it lives for one script: resuming other executions' approvals here would be cut short at its exit
    approvalSweepMs: null,
  })
  const response = await Effect.runPromise(host.executor.execute({ code }))
  for (const log of response.logs) process.stderr.write(`[${log.level}] ${log.message}\n`)
  if (response.warning !== undefined) process.stderr.write(`warning: ${response.warning}\n`)
  if (isPaused(response)) {
    // the catalog is named to the next command only when --db named it: $DATABASE_URL is read there too
    process.stderr.write(pausedText(response, { db: dbGiven ? db : undefined, "allow-stdio": values["allow-stdio"] }))
    await host.close()
    process.exit(EXIT_PAUSED)
  }
  if (response.ok)
    process.stdout.write(response.text.endsWith("\n") || response.text === "" ? response.text : `${response.text}\n`)
  else process.stderr.write(`error (${response.error.code}): ${response.error.message}\n`)
  await host.close()
  process.exit(response.ok ? 0 : 1)
}
