/**
 * Applies a config file's sources to a host's catalog at boot, idempotently, through the sources service (the
 * same Effects as the API): a source not in the catalog is added; one whose config is unchanged is kept as it is
 * (no re-sync); one whose only changes are fields a PATCH replaces (http `url`/`headers`/`auth`, stdio `env`/`args`) is
 * updated, which re-syncs it; any other change (kind, transport type, command, cwd) is a remove and an add. A
 * catalog source the file does not name is removed only with `prune`, else kept and logged.
 *
 * An upstream that cannot be reached is not a bad file: its source is reported (logged, and in `failed`) and the
 * boot goes on. A failed add leaves nothing behind, so the next boot tries again; a failed re-sync keeps the
 * new config with its `syncError`, as a PATCH does.
 *
 * An upstream's error may quote what the file gave it (a DNS failure names the host, a spawn error the command, a
 * server may echo its arguments): every message this prints or logs has `${NAME}` in place of each value the file
 * read from the environment (`variables`).
 */
import { Effect } from "effect"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Sources from "@switchboard/core/sources"
import type * as Policy from "@switchboard/core/policy"
import type { Logger } from "@switchboard/core"
import type { McpTransportConfig } from "@switchboard/plugin-mcp"
import { resolveStdioPaths } from "@switchboard/plugin-mcp/node"
import type { Host } from "../compose.js"
import { hideVariables } from "./config-file.js"
import type { ConfigSource } from "./config-schema.js"

export interface ApplyReport {
  added: string[]
  updated: string[]
  /** removed and added again: a change a PATCH cannot make */
  replaced: string[]
  unchanged: string[]
  removed: string[]
  /** in the catalog, not in the file, and no prune */
  kept: string[]
  failed: { namespace: string; message: string }[]
}

/** The fields a PATCH of each transport replaces (plugin-mcp config-schema.ts); any other change is remove + add. */
const PATCHABLE: Record<string, readonly string[]> = { stdio: ["env", "args"], http: ["headers", "url"] }

/** JSON with its object keys sorted, so two configs compare by content. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  )

const run = <A>(effect: Effect.Effect<A, { message: string }>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.map((value) => ({ ok: true as const, value })),
      Effect.catch((error) => Effect.succeed({ ok: false as const, message: error.message })),
    ),
  )

type Plan =
  | { action: "add" | "unchanged" | "replace" }
  | { action: "update"; patch: Record<string, unknown>; changed: string[] }

/** The fields a PATCH of an openapi source replaces (plugin-openapi config-schema.ts), each sent whole. */
const OPENAPI_PATCHABLE = ["auth", "headers"]

/** An openapi source: only its credentials change by PATCH; any other change is remove + add. */
const planOpenApi = (stored: Record<string, unknown>, wanted: Record<string, unknown>): Plan => {
  const keys = new Set([...Object.keys(stored), ...Object.keys(wanted)])
  const changed = [...keys].filter((key) => canonical(stored[key]) !== canonical(wanted[key]))
  if (changed.some((key) => !OPENAPI_PATCHABLE.includes(key))) return { action: "replace" }
  return { action: "update", patch: Object.fromEntries(OPENAPI_PATCHABLE.map((k) => [k, wanted[k] ?? {}])), changed }
}

/** What to do with a file's source given the catalog's row for its namespace. */
const plan = (host: Host, source: ConfigSource, row: Catalog.SourceRow | null): Plan => {
  if (!row) return { action: "add" }
  if (row.kind !== source.kind) return { action: "replace" }
  const { namespace: _, kind: __, ...config } = source
  // the file's config as the service stores it (defaults filled in, the URL in its normal form)
  const schema = host.sources.kinds.find((k) => k.kind === source.kind)?.configSchema
  const wanted = (schema?.parse(config) ?? config) as { transport: Record<string, unknown>; auth?: unknown }
  // a row whose secrets do not decrypt holds placeholders: send the file's values again
  if (!row.secretsError && canonical(row.config) === canonical(wanted)) return { action: "unchanged" }
  if (source.kind === "openapi")
    return planOpenApi((row.config ?? {}) as Record<string, unknown>, wanted as unknown as Record<string, unknown>)
  const storedConfig = (row.config ?? {}) as { transport?: Record<string, unknown>; auth?: unknown }
  const stored = storedConfig.transport ?? {}
  const patchable = PATCHABLE[String(wanted.transport.type)] ?? []
  const keys = new Set([...Object.keys(stored), ...Object.keys(wanted.transport)])
  const changed = [...keys].filter((key) => canonical(stored[key]) !== canonical(wanted.transport[key]))
  if (stored.type !== wanted.transport.type || changed.some((key) => !patchable.includes(key)))
    return { action: "replace" }
  const http = wanted.transport.type === "http"
  if (canonical(storedConfig.auth ?? {}) !== canonical(wanted.auth ?? {})) changed.push("auth")
  // every field a PATCH takes, changed or not: a new URL or new arguments alone would drop the stored headers, env
  // or client secret (plugin-mcp config.ts), and a row whose secrets do not decrypt needs the file's values again anyway
  const transport = Object.fromEntries(
    patchable.filter((k) => k in wanted.transport).map((k) => [k, wanted.transport[k]]),
  )
  return { action: "update", patch: { transport, ...(http ? { auth: wanted.auth ?? {} } : {}) }, changed }
}

export interface ApplyOptions {
  prune?: boolean
  logger: Logger
  /** follows each sync the apply makes (an add, an update's re-sync): a CLI's progress line (commands/sync-progress-line.ts) */
  progress?: (namespace: string) => { onProgress: Sources.ProgressListener; end(): void }
  /** the values the file read from the environment, by name (config-file.ts), kept out of every message */
  variables?: ReadonlyMap<string, string>
  /**
   * the folder a stdio source's relative paths are taken from: the file's, so the file means the same wherever the
   * server starts (plugin-mcp's `resolveStdioPaths`); without it, the server's working directory
   */
  folder?: string
}

/** The file's source with a stdio transport's relative paths made absolute in `folder`. */
const inFolder = (source: ConfigSource, folder: string | undefined): ConfigSource => {
  const { transport } = source as { transport?: McpTransportConfig }
  if (folder === undefined || transport?.type !== "stdio") return source
  const pinned = { ...source, transport: resolveStdioPaths(transport, folder) }
  return pinned
}

/** as plugin-mcp scrubs secrets from a source's text: shorter values would shred a message and hide nothing */
const MIN_HIDDEN_LENGTH = 4

/** Every string of a log line's details, `hide`s. */
const hidden = (value: unknown, hide: (text: string) => string): unknown =>
  typeof value === "string"
    ? hide(value)
    : Array.isArray(value)
      ? value.map((item) => hidden(item, hide))
      : value !== null && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hidden(item, hide)]))
        : value

/** The logger with `hide` applied to each line's message and details. */
const hidingLogger = (logger: Logger, hide: (text: string) => string): Logger => {
  const line = (level: keyof Logger) => (message: string, details?: Record<string, unknown>) =>
    logger[level](hide(message), details && (hidden(details, hide) as Record<string, unknown>))
  return { error: line("error"), warn: line("warn"), info: line("info") }
}

export const applyConfigSources = async (
  host: Host,
  sources: readonly ConfigSource[],
  options: ApplyOptions,
): Promise<ApplyReport> => {
  const variables = options.variables ?? new Map<string, string>()
  const hide = (text: string) => hideVariables(text, variables, MIN_HIDDEN_LENGTH)
  const logger = hidingLogger(options.logger, hide)
  /** the effect of a sync, followed by the progress line, which ends whatever the outcome */
  const followed = <A>(
    namespace: string,
    sync: (onProgress?: Sources.ProgressListener) => Effect.Effect<A, { message: string }>,
  ) => {
    const progress = options.progress?.(namespace)
    return sync(progress?.onProgress).pipe(Effect.ensuring(Effect.sync(() => progress?.end())))
  }
  const report: ApplyReport = { added: [], updated: [], replaced: [], unchanged: [], removed: [], kept: [], failed: [] }
  const failed = (namespace: string, message: string) => {
    report.failed.push({ namespace, message: hide(message) })
    logger.error("config: source not applied; the server starts without it", { namespace, error: message })
  }
  for (const given of sources) {
    const source = inFolder(given, options.folder)
    const { namespace } = source
    const step = plan(host, source, await host.store.getSource(namespace))
    if (step.action === "unchanged") {
      report.unchanged.push(namespace)
      logger.info("config: source unchanged, kept (no re-sync)", { namespace })
      continue
    }
    if (step.action === "update") {
      const updated = await run(
        followed(namespace, (onProgress) => host.sources.update(namespace, step.patch, { onProgress })),
      )
      if (!updated.ok) failed(namespace, updated.message)
      else {
        report.updated.push(namespace)
        logger.info("config: source updated and re-synced", { namespace, fields: step.changed })
        // a failed re-sync keeps the new config, as a PATCH does
        if (updated.value.source.syncError) failed(namespace, updated.value.source.syncError)
      }
      continue
    }
    if (step.action === "replace") {
      const removed = await run(host.sources.remove(namespace))
      if (!removed.ok) {
        failed(namespace, removed.message)
        continue
      }
    }
    const added = await run(followed(namespace, (onProgress) => host.sources.add(source, { onProgress })))
    if (!added.ok) failed(namespace, added.message)
    else {
      ;(step.action === "replace" ? report.replaced : report.added).push(namespace)
      logger.info(step.action === "replace" ? "config: source replaced (removed and added)" : "config: source added", {
        namespace,
        tools: added.value.toolCount,
      })
    }
  }
  const named = new Set(sources.map((s) => s.namespace))
  for (const row of await host.store.listSources()) {
    if (named.has(row.namespace)) continue
    if (!options.prune) {
      report.kept.push(row.namespace)
      logger.warn("config: source not in the file, kept (start with --prune to remove it)", {
        namespace: row.namespace,
      })
      continue
    }
    const removed = await run(host.sources.remove(row.namespace))
    if (removed.ok) {
      report.removed.push(row.namespace)
      logger.info("config: source not in the file, removed (--prune)", { namespace: row.namespace })
    } else failed(row.namespace, removed.message)
  }
  return report
}

/** One line for the operator: what the boot did with the file. */
export const describeReport = (report: ApplyReport) =>
  (["added", "updated", "replaced", "unchanged", "removed", "kept"] as const)
    .filter((key) => report[key].length > 0)
    .map((key) => `${key} ${report[key].join(", ")}`)
    .concat(report.failed.map((f) => `FAILED ${f.namespace}: ${f.message}`))
    .join("; ") || "no sources"

/**
 * Applies a config file's policy rules at boot: they replace every rule an earlier file made (origin `config`), so
 * a rule edited or taken out of the file changes at this boot; rules added through the API stay. A file without
 * `policies` takes the earlier file's rules away. A failure is thrown: a server must not start without its block
 * rules.
 */
export const applyConfigPolicies = async (host: Host, policies: readonly Policy.PolicyRequest[], logger: Logger) => {
  const before = await host.policies.rules()
  await host.policies.applyConfig(policies)
  const report = {
    applied: policies.length,
    replaced: before.filter((rule) => rule.origin === "config").length,
    kept: before.filter((rule) => rule.origin === "api").length,
  }
  logger.info("config: policy rules applied", report)
  return report
}

/** The policies' part of the boot's line, when there is anything to say. */
export const describePolicies = (report: Awaited<ReturnType<typeof applyConfigPolicies>>) =>
  report.applied === 0 && report.replaced === 0
    ? ""
    : `; policies: ${report.applied} rule${report.applied === 1 ? "" : "s"} from the file` +
      (report.kept > 0 ? ` (${report.kept} added through the API kept)` : "")
