/**
 * `switchboard describe <ns.tool> [...]`: the TypeScript a model sees for the tools (`POST /v1/describe`: one block,
 * shared declarations once); `--json` the whole answer. A path with no tool is named on stderr, exit 1.
 */
import type { CommandInput } from "../cli/define.js"
import type { targetFlags } from "../cli/flags.js"
import { asLine, printJson, withCatalog } from "./catalog-target.js"
import { fail } from "./common.js"

export const describeCommand = async ({ values, args: paths }: CommandInput<typeof targetFlags>) => {
  if (paths.length === 0)
    fail("describe needs one or more tool paths, such as demo.add (`switchboard tools` lists them)")
  return withCatalog(values, async (client) => {
    const described = await client.describe(paths)
    if (values.json) printJson(described)
    else process.stdout.write(asLine(described.typescript))
    for (const path of described.missing) process.stderr.write(`switchboard: no tool "${path}" (not_found)\n`)
    return described.missing.length > 0 ? 1 : 0
  })
}
