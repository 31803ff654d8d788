/**
 * `switchboard sources list|add|sync|update|remove`: the catalog's sources, in the local database (--db) or on a running
 * server (--url), as `/v1/sources` shows them. `--json` prints the API's answer; by default a table, or a line.
 */
import { readFileSync } from "node:fs"
import type * as Sources from "@switchboard/core/sources"
import { resolveStdioPaths } from "@switchboard/plugin-mcp/node"
import type { sourcesAddFlags, sourcesFlags, sourcesSyncFlags, sourcesUpdateFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import { syncProgressLine } from "./sync-progress-line.js"
import type { CatalogClient } from "../catalog-client/catalog-client.js"
import { printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"
import { jsonObject } from "./json-input.js"
import { table, when } from "./table.js"

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

type AddInput = CommandInput<typeof sourcesAddFlags>

/**
 * A stdio source's relative paths made absolute in this command's working directory, which is where a person typing
 * them means them: a server, or a later process, starts the source from another folder. The host checks them.
 */
const withAbsolutePaths = (body: Record<string, unknown>): Record<string, unknown> => {
  const transport = body.transport as Record<string, unknown> | undefined
  const { command, args, cwd } = transport ?? {}
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((a) => typeof a === "string")
  if (transport?.type !== "stdio" || typeof command !== "string" || (args !== undefined && !strings(args))) return body
  if (cwd !== undefined && typeof cwd !== "string") return body
  return { ...body, transport: resolveStdioPaths({ ...transport, command, args, cwd }, process.cwd()) }
}

/** An openapi source's body: its spec by URL, or a file's text inline. */
const openApiBody = (namespace: string, values: AddInput["values"]): Record<string, unknown> => {
  const given = values.openapi!
  const spec = given.startsWith("@") ? { inline: readFileSync(given.slice(1), "utf8") } : { url: given }
  const headers = pairs(values.header, ":", "--header")
  return { namespace, kind: "openapi", spec, ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}), headers }
}

/** The body of `sources add`: the JSON given, or one made from --stdio, --http or --openapi. */
const sourceBody = ({ values, args, rest }: AddInput): Record<string, unknown> => {
  const given = args[0]!
  const stdio = values.stdio ? rest : undefined
  if (stdio === undefined && values.env) usageError("--env is for a stdio source: give it before --stdio")
  const kinds = [stdio !== undefined, values.http !== undefined, values.openapi !== undefined].filter(Boolean).length
  if (kinds > 1) usageError("a source is one of --stdio, --http or --openapi")
  if (values.openapi !== undefined) return openApiBody(given, values)
  if (values["base-url"] !== undefined) usageError("--base-url is for an openapi source (--openapi <url|@file>)")
  if (values.http === undefined && values.header) usageError("--header is for an http or openapi source")
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

const describeSource = (source: Sources.SourceView) =>
  `${source.namespace}: ${source.toolCount} ${source.toolCount === 1 ? "tool" : "tools"}` +
  (source.syncError === null
    ? ""
    : source.status === "needs_login"
      ? ` (${source.syncError})`
      : ` (sync error: ${source.syncError})`)

export const sourcesListCommand = async ({ values }: CommandInput<typeof sourcesFlags>) =>
  withCatalog(values, async (client) => {
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

/** add or sync, waiting for the sync: its pages on stderr as it goes, then what it found */
const synced = async (
  values: { json: boolean },
  namespace: string,
  verb: string,
  client: CatalogClient,
  sync: (onProgress: ReturnType<typeof syncProgressLine>["onProgress"]) => Promise<Sources.SourceView>,
) => {
  const progress = syncProgressLine(namespace)
  let source: Sources.SourceView
  try {
    source = await sync(progress.onProgress)
  } finally {
    progress.end()
  }
  if (values.json) printJson({ source })
  else process.stdout.write(`${verb} ${describeSource(source)}\n`)
  // a source that waits for its login was added: it is synced once someone logs in
  return source.status === "ready" || source.status === "needs_login" ? 0 : 1
}

export const sourcesAddCommand = async (input: AddInput) => {
  const body = withAbsolutePaths(sourceBody(input))
  return withCatalog(input.values, (client) =>
    synced(input.values, String(body.namespace), "added", client, (onProgress) => client.addSource(body, onProgress)),
  )
}

export const sourcesSyncCommand = async ({ values, args }: CommandInput<typeof sourcesSyncFlags>) =>
  withCatalog(values, (client) =>
    synced(values, args[0]!, "synced", client, (onProgress) => client.syncSource(args[0]!, onProgress)),
  )

/** `sources update <namespace> <patch>`: a PATCH, as the API takes it; what it dropped on a line of its own */
export const sourcesUpdateCommand = async ({ values, args }: CommandInput<typeof sourcesUpdateFlags>) => {
  const patch = jsonObject(args[1]!, "the patch")
  return withCatalog(values, async (client) => {
    const update = await client.updateSource(args[0]!, patch)
    if (values.json) printJson(update)
    else {
      process.stdout.write(`updated ${describeSource(update.source)}\n`)
      if (update.dropped.length > 0)
        process.stdout.write(`dropped (send them again to keep them): ${update.dropped.join(", ")}\n`)
    }
    return update.source.status === "ready" || update.source.status === "needs_login" ? 0 : 1
  })
}

export const sourcesRemoveCommand = async ({ values, args }: CommandInput<typeof sourcesSyncFlags>) =>
  withCatalog(values, async (client) => {
    await client.removeSource(args[0]!)
    if (!values.json) process.stdout.write(`removed ${args[0]} and its tools\n`)
    return 0
  })
