/**
 * `switchboard call <ns.tool> [json-args | -]`: runs one tool, as an execution of a script that calls it (recorded
 * as any execution, under the key's scopes), and prints what the call resolved to: on `ok`, its `data` as the
 * execute API renders a result (a string as its own text, anything else as JSON); on a failed call its error code
 * and message on stderr, exit 1. `--json` prints the whole `{ ok, data, content?, meta? }` union, or
 * `{ ok: false, error }`, exit 1 when it is not ok. A call that needs a person's approval pauses its execution: what
 * waits and how to decide it on stderr (./paused-text.ts; with `--json`, the API's 202 answer on stdout), exit 3.
 */
import * as Catalog from "@switchboard/core/catalog"
import * as Render from "@switchboard/core/render"
import type { ToolResult } from "@switchboard/core"
import type { CallResponse } from "../catalog-client/catalog-client.js"
import type { callFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import { asLine, printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"
import { jsonObject } from "./json-input.js"
import { EXIT_PAUSED, isPaused, pausedText } from "./paused-text.js"
import type { PausedAnswer } from "./paused-text.js"

/** What the call resolved to; the execution's own failure (a limit, the sandbox) in the union's failed form. */
const outcome = (response: Exclude<CallResponse, PausedAnswer>): ToolResult => {
  if (!response.ok) return { ok: false, error: { code: response.error.code, message: response.error.message } }
  const result = response.result as ToolResult | null
  return typeof result === "object" && result !== null && typeof result.ok === "boolean"
    ? result
    : { ok: false, error: { code: "internal_error", message: "the call's script returned no result union" } }
}

export const callCommand = async ({ values, args }: CommandInput<typeof callFlags>) => {
  const [path, given] = args
  if (!Catalog.splitToolPath(path!))
    usageError(`call needs a tool path, namespace.tool, such as demo.add (got "${path}")`)
  const toolArgs = given === undefined ? {} : jsonObject(given, "call's arguments")
  return withCatalog(values, async (client) => {
    const response = await client.call(path!, toolArgs)
    for (const log of response.logs) process.stderr.write(`[${log.level}] ${log.message}\n`)
    if (isPaused(response)) {
      if (values.json) printJson(response)
      process.stderr.write(pausedText(response, values))
      return EXIT_PAUSED
    }
    if (response.warning !== undefined) process.stderr.write(`warning: ${response.warning}\n`)
    const result = outcome(response)
    if (values.json) printJson(result)
    else if (result.ok) process.stdout.write(asLine(Render.renderForModel(result.data)))
    else process.stderr.write(`error (${result.error.code}): ${result.error.message}\n`)
    return result.ok ? 0 : 1
  })
}
