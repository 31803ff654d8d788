/**
 * `switchboard tools`: the catalog's tools, one a line: its path, a tab, its description's first line cut to fit
 * one line (`--long`: the whole description); `--json` as `GET /v1/tools` answers. Locally it reads the database
 * alone (no host, no sandbox); with `--url` it asks the server, whose client it loads only then.
 */
import * as Describe from "@switchboard/core/describe"
import { openCatalogDatabase } from "../database/catalog-database.js"
import type { ToolSummary } from "../catalog-client/catalog-client.js"
import type { CommandInput } from "../cli/define.js"
import type { toolsFlags } from "../cli/command-flags.js"
import { asLine, catalogTarget, printJson, withClient } from "./catalog-place.js"
import { fail } from "./common.js"

/** what `GET /v1/tools` answers at most */
const MAX_TOOLS = 1_000
/** a line's width when stdout is not a terminal */
const PLAIN_WIDTH = 120

const summary = ({ path, namespace, name, description }: ToolSummary): ToolSummary => ({
  path,
  namespace,
  name,
  description,
})

/** the path, a tab, and the description's first line, cut with an ellipsis where the line would pass `width` */
const oneLine = (tool: ToolSummary, width: number) => {
  const first = (tool.description ?? "").trim().split("\n")[0]!.trim()
  const room = Math.max(width - tool.path.length - 8, 20)
  return `${tool.path}\t${first.length > room ? `${first.slice(0, room - 1)}…` : first}`
}

export const toolsCommand = async ({ values }: CommandInput<typeof toolsFlags>) => {
  const limit =
    values.limit === undefined
      ? undefined
      : Number.isInteger(Number(values.limit)) && Number(values.limit) >= 1 && Number(values.limit) <= MAX_TOOLS
        ? Number(values.limit)
        : fail(`--limit must be a whole number from 1 to ${MAX_TOOLS} (got "${values.limit}")`)
  const request = { query: values.query, namespace: values.namespace, limit }
  const target = catalogTarget(values)
  let tools: ToolSummary[]
  if (target.kind === "remote") {
    const { openRemoteClient } = await import("../catalog-client/remote-client.js")
    const listed = await withClient(openRemoteClient(target.url), (client) => client.listTools(request))
    if (!listed.ok) return listed.code
    tools = listed.value
  } else {
    const database = await openCatalogDatabase(target.db)
    try {
      // the same ranking as GET /v1/tools?query= and tools.$search
      tools = (
        request.query?.trim()
          ? await Describe.createDescribeService(database.store).search(request.query, request)
          : await database.store.listTools(request)
      ).map(summary)
    } finally {
      await database.close()
    }
  }
  if (values.json) printJson({ tools })
  else if (values.long)
    process.stdout.write(tools.map((tool) => asLine(`${tool.path}\t${tool.description ?? ""}`)).join(""))
  else {
    const width = process.stdout.isTTY ? process.stdout.columns : PLAIN_WIDTH
    process.stdout.write(tools.map((tool) => `${oneLine(tool, width)}\n`).join(""))
  }
  return 0
}
