/** `switchboard run <file|->`: one script against the catalog, its result on stdout. */
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { createHost } from "../compose.js"
import { runtimeFlagOptions, tuning } from "../runtime-flags.js"
import { dbOption, existingCatalog, fail } from "./common.js"

export const runCommand = async (args: string[]) => {
  const { values, positionals } = parseArgs({
    args,
    options: { ...dbOption, "allow-stdio": { type: "boolean", default: false }, ...runtimeFlagOptions },
    allowPositionals: true,
  })
  const file = positionals[0] ?? fail("run needs a script file, or - to read stdin")
  const db = existingCatalog(values.db)
  const code = readFileSync(file === "-" ? 0 : file, "utf8")
  // one script: one worker unless --workers says otherwise
  const host = await createHost({ db, allowStdio: values["allow-stdio"], workers: 1, ...tuning(values) })
  const response = await Effect.runPromise(host.executor.execute({ code }))
  for (const log of response.logs) process.stderr.write(`[${log.level}] ${log.message}\n`)
  if (response.warning !== undefined) process.stderr.write(`warning: ${response.warning}\n`)
  if (response.ok)
    process.stdout.write(response.text.endsWith("\n") || response.text === "" ? response.text : `${response.text}\n`)
  else process.stderr.write(`error (${response.error.code}): ${response.error.message}\n`)
  await host.close()
  process.exit(response.ok ? 0 : 1)
}
