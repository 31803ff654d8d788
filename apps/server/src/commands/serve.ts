/** `switchboard serve` and `switchboard demo`: the HTTP server; the demo also registers its own MCP source. */
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { demoServerCommand } from "../build-outputs.js"
import { approvalFlagOptions, approvalsFromFlags } from "../approval-flags.js"
import { applyConfigPolicies, applyConfigSources, describePolicies, describeReport } from "../config/apply-config.js"
import { configPathFor, givenFlags, readServeConfig, withFileLimits, withFileSettings } from "../config/serve-config.js"
import { logFlagOptions, logSettings } from "../log-flags.js"
import { retentionFlagOptions, retentionFromFlags } from "../retention-flags.js"
import { runtimeFlagOptions, tuning } from "../runtime-flags.js"
import { isLoopback, startServer } from "../serve.js"
import { syncProgressLine } from "../sync-progress-line.js"
import type { RunningServer } from "../serve.js"
import { displayDb } from "../display-db.js"
import { DEFAULT_DB, dbOption, fail, isMissingFile, parseDuration } from "./common.js"
import { targetFlags } from "./paused-text.js"
import { usage } from "./usage.js"

const serveOptions = {
  port: { type: "string", default: "4747" },
  host: { type: "string", default: "127.0.0.1" },
  ...dbOption,
  "allow-stdio": { type: "boolean", default: false },
  "allow-private-sources": { type: "boolean", default: false },
  "sync-ttl": { type: "string", default: "15m" },
  "require-key": { type: "boolean", default: false },
  "max-connections-per-address": { type: "string" },
  config: { type: "string" },
  prune: { type: "boolean", default: false },
  help: { type: "boolean", default: false },
  ...runtimeFlagOptions,
  ...logFlagOptions,
  ...retentionFlagOptions,
  ...approvalFlagOptions,
} as const

const parsePort = (text: string) => {
  const port = Number(text)
  return Number.isInteger(port) && port >= 0 && port < 65536
    ? port
    : fail(`--port must be a port number (got "${text}")`)
}

const parseConnectionsPerAddress = (text: string | undefined) => {
  if (text === undefined) return undefined
  const count = Number(text)
  return Number.isInteger(count) && count >= 1
    ? count
    : fail(`--max-connections-per-address must be a whole number of at least 1 (got "${text}")`)
}

const sameCommand = (config: unknown, wanted: { command: string; args: string[] }) => {
  const transport = (config as { transport?: { command?: unknown; args?: unknown } } | null)?.transport
  return transport?.command === wanted.command && JSON.stringify(transport.args) === JSON.stringify(wanted.args)
}

/**
 * The demo's source runs this build's demo server, the one command `demo` allows. A catalog made by another
 * build (or another checkout, or another Node) names a different command, which would be refused: it is
 * registered again.
 */
const registerDemoSource = async (server: RunningServer, demo: { command: string; args: string[] }) => {
  const { sources, store } = server.host
  const stored = await store.getSource("demo")
  if (stored && sameCommand(stored.config, demo)) return
  const register = Effect.gen(function* () {
    if (stored) yield* sources.remove("demo")
    const progress = syncProgressLine("demo")
    yield* sources
      .add(
        { namespace: "demo", kind: "mcp", transport: { type: "stdio", ...demo } },
        { onProgress: progress.onProgress },
      )
      .pipe(Effect.ensuring(Effect.sync(progress.end)))
  })
  await Effect.runPromise(
    Effect.catch(register, (error) =>
      Effect.sync(() => process.stderr.write(`switchboard: could not register the demo source: ${error.message}\n`)),
    ),
  )
}

export const serveCommand = async (args: string[], demo: boolean) => {
  const { values: flags, tokens } = parseArgs({ args, options: serveOptions, strict: true, tokens: true })
  if (flags.help) return void process.stdout.write(usage())
  // a bad config file stops the boot before anything is opened
  const file = readServeConfig(configPathFor(flags.config))
  if (file && !file.ok) {
    for (const problem of file.problems) process.stderr.write(`switchboard: ${problem}\n`)
    process.stderr.write(`switchboard: the config file ${file.path} is not valid; nothing was started\n`)
    process.exit(1)
  }
  const config = file?.ok ? file.config : undefined
  const given = givenFlags(tokens)
  const values = withFileSettings(flags, given, config)
  const retention = retentionFromFlags(values)
  if (!retention.ok) return fail(retention.message)
  const approvals = approvalsFromFlags(values, config?.approvals)
  if (!approvals.ok) return fail(approvals.message)
  const demoServer = demo ? demoServerCommand() : undefined
  const creating = isMissingFile(values.db)
  const server = await startServer({
    db: values.db,
    port: parsePort(values.port),
    hostname: values.host,
    // the demo runs its own MCP server over stdio; any other stdio source still needs --allow-stdio
    allowStdio: values["allow-stdio"] || (demoServer ? { commands: [demoServer] } : false),
    allowPrivateSources: values["allow-private-sources"],
    syncTtlMs: parseDuration(values["sync-ttl"]),
    requireKey: values["require-key"],
    maxConnectionsPerAddress: parseConnectionsPerAddress(values["max-connections-per-address"]),
    ...withFileLimits(tuning(values), config),
    beforeListen: config
      ? async (host) => {
          // the rules first: no source the file adds is callable before its block rules are in place
          const policies = await applyConfigPolicies(host, config.policies ?? [], host.logger)
          const report = await applyConfigSources(host, config.sources ?? [], {
            prune: flags.prune,
            logger: host.logger,
            progress: (namespace) => syncProgressLine(namespace),
          })
          process.stderr.write(
            `switchboard: config ${file!.path}: ${describeReport(report)}${describePolicies(policies)}\n`,
          )
        }
      : undefined,
    ...logSettings(values, fail),
    retain: retention.retain,
    ...approvals.options,
  })
  if (creating) process.stdout.write(`switchboard: created a new catalog database at ${resolve(values.db)}\n`)
  if (!isLoopback(values.host) || values["require-key"]) {
    const live = (await server.host.keys.list()).filter((k) => k.revokedAt === null)
    // a catalog from $SWITCHBOARD_DB or $DATABASE_URL is found there by `keys` too: no --db, and no URL printed
    const fromEnv = !given.has("db") && config?.server?.db === undefined && values.db !== DEFAULT_DB
    const { on } = targetFlags({ db: fromEnv ? undefined : values.db })
    process.stderr.write(
      `switchboard: every route but /healthz and /readyz needs an API key (${live.length} live); create one with: switchboard keys create <name> --scope execute${on} (an admin key also manages keys over HTTP: /v1/keys)\n`,
    )
  }
  if (!isLoopback(values.host)) {
    process.stderr.write(
      values["allow-private-sources"]
        ? "switchboard: http sources may reach private addresses (--allow-private-sources)\n"
        : "switchboard: http sources may not reach loopback, private, link-local or metadata addresses; --allow-private-sources allows them\n",
    )
  }
  if (demoServer) await registerDemoSource(server, demoServer)
  if (retention.retain) process.stderr.write(`switchboard: ${retention.notice}\n`)
  if (approvals.notice) process.stderr.write(`switchboard: ${approvals.notice}\n`)
  process.stdout.write(`switchboard listening on ${server.url} (catalog: ${displayDb(values.db)})\n`)
  if (demo) {
    process.stdout.write(
      `try:\n  curl -s ${server.url}/v1/execute -H 'content-type: application/json' \\\n    -d '{"code":"const r = await tools.demo.add({ a: 2, b: 3 }); return r.data"}'\n`,
    )
  }
  const stop = async () => {
    await server.close()
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}
