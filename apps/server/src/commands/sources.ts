/**
 * `switchboard sources list|add|sync|remove`: the catalog's sources, in the local database (--db) or on a running
 * server (--url), as `/v1/sources` shows them. `--json` prints the API's answer; by default a table, or a line.
 */
import { parseArgs } from "node:util"
import type { SourceView } from "@switchboard/core"
import { syncProgressLine } from "../sync-progress-line.js"
import { allowStdioOption, printJson, targetOptions, withCatalog } from "./catalog-target.js"
import { indented, sourcesUsage } from "./catalog-usage.js"
import { fail } from "./common.js"
import { jsonObject } from "./json-input.js"
import { table, when } from "./table.js"

const options = {
  ...targetOptions,
  ...allowStdioOption,
  http: { type: "string" },
  header: { type: "string", multiple: true },
  env: { type: "string", multiple: true },
} as const

const usageError = (problem: string): never => fail(`${problem}\n  ${indented(sourcesUsage, "  ")}`)

const pairs = (given: string[] | undefined, separator: string, flag: string) =>
  Object.fromEntries(
    (given ?? []).map((pair) => {
      const at = pair.indexOf(separator)
      if (at <= 0) {
        // the value is a secret (a token, a password): the message names only what comes before any separator
        const name = pair.split(/[=:\s]/, 1)[0]
        usageError(
          `${flag} takes "name${separator}value" (got ${name ? `"${name}" without "${separator}"` : "one with no name"})`,
        )
      }
      return [pair.slice(0, at).trim(), pair.slice(at + separator.length).trim()]
    }),
  )

type Values = ReturnType<typeof parse>["values"]

/** The body of `sources add`: the JSON given, or one made from --stdio or --http. */
const sourceBody = (values: Values, positionals: string[], stdio: string[] | undefined): Record<string, unknown> => {
  const [given, ...extra] = positionals
  if (given === undefined || extra.length > 0) return usageError("sources add takes one source")
  if (stdio === undefined && values.env) usageError("--env is for a stdio source: give it before --stdio")
  if (values.http === undefined && values.header) usageError("--header is for an http source (--http <url>)")
  if (stdio !== undefined && values.http !== undefined) usageError("a source is --stdio or --http, not both")
  if (stdio !== undefined) {
    const [command, ...args] = stdio
    if (command === undefined) usageError("--stdio needs the command that starts the server")
    const env = pairs(values.env, "=", "--env")
    return { namespace: given, kind: "mcp", transport: { type: "stdio", command, args, env } }
  }
  if (values.http !== undefined) {
    const headers = pairs(values.header, ":", "--header")
    return { namespace: given, kind: "mcp", transport: { type: "http", url: values.http, headers } }
  }
  return jsonObject(given, "the source")
}

const parse = (args: string[]) => parseArgs({ args, options, allowPositionals: true, strict: true })

const describeSource = (source: SourceView) =>
  `${source.namespace}: ${source.toolCount} ${source.toolCount === 1 ? "tool" : "tools"}` +
  (source.syncError === null ? "" : ` (sync error: ${source.syncError})`)

export const sourcesCommand = async (args: string[]) => {
  // what follows --stdio is the server's own command line, its flags included
  const cut = args.indexOf("--stdio")
  const stdio = cut < 0 ? undefined : args.slice(cut + 1)
  const { values, positionals } = parse(cut < 0 ? args : args.slice(0, cut))
  const [action, ...rest] = positionals
  const named = () => (rest.length === 1 ? rest[0]! : usageError(`sources ${action} takes one namespace`))
  if (action !== "add" && (stdio || values.http || values.header || values.env))
    usageError("--stdio, --http, --header and --env are for sources add")

  if (action === "list") {
    if (rest.length > 0) usageError("sources list takes no argument")
    return withCatalog(values, async (client) => {
      const sources = await client.listSources()
      if (values.json) printJson({ sources })
      else
        process.stdout.write(
          table(
            ["NAMESPACE", "KIND", "STATUS", "TOOLS", "LAST SYNCED", "SYNC ERROR"],
            sources.map((s) => [
              s.namespace,
              s.kind,
              s.status,
              String(s.toolCount),
              when(s.lastSyncedAt),
              s.syncError ?? "",
            ]),
          ),
        )
      return 0
    })
  }
  if (action === "add" || action === "sync") {
    const body = action === "add" ? sourceBody(values, rest, stdio) : undefined
    const namespace = body ? String(body.namespace) : named()
    return withCatalog(values, async (client) => {
      const progress = syncProgressLine(namespace)
      let source: SourceView
      try {
        source = body
          ? await client.addSource(body, progress.onProgress)
          : await client.syncSource(namespace, progress.onProgress)
      } finally {
        progress.end()
      }
      if (values.json) printJson({ source })
      else process.stdout.write(`${body ? "added" : "synced"} ${describeSource(source)}\n`)
      return source.status === "ready" ? 0 : 1
    })
  }
  if (action === "remove") {
    const namespace = named()
    return withCatalog(values, async (client) => {
      await client.removeSource(namespace)
      if (!values.json) process.stdout.write(`removed ${namespace} and its tools\n`)
      return 0
    })
  }
  return usageError(action === undefined ? "sources needs an action" : `unknown action "${action}"`)
}
