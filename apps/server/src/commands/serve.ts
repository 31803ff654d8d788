/** `switchboard serve` and `switchboard demo`: the HTTP server; the demo also registers its own MCP source. */
import { dirname, resolve } from "node:path"
import { Effect } from "effect"
import { checkPublicUrl } from "@switchboard/api"
import * as Auth from "@switchboard/core/auth"
import { demoServerCommand } from "../build-outputs.js"
import { approvalsFromFlags } from "../flags/approval-flags.js"
import { applyConfigPolicies, applyConfigSources, describePolicies, describeReport } from "../config/apply-config.js"
import type { CommandInput } from "../cli/define.js"
import type { serveFlags } from "../cli/command-flags.js"
import { configPathFor, readServeConfig, withFileLimits, withFileSettings } from "../config/serve-config.js"
import { logSettings } from "../flags/log-flags.js"
import { retentionFromFlags } from "../flags/retention-flags.js"
import { tuning } from "../flags/runtime-flags.js"
import { isLoopback, startServer } from "../serving/serve.js"
import { syncProgressLine } from "./sync-progress-line.js"
import type { RunningServer } from "../serving/serve.js"
import { displayDb } from "../database/display-db.js"
import { stdioAllowance } from "../flags/stdio-flags.js"
import { DEFAULT_DB, defaultDb, fail, isMissingFile, parseDuration } from "./common.js"
import { targetFlags } from "./paused-text.js"

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

/** the stored transport is the demo's as the demo makes it: no env, no cwd */
const isDemoTransport = (config: unknown, wanted: { command: string; args: string[] }) => {
  const { type, command, args, env, cwd } = (config as { transport?: Record<string, unknown> } | null)?.transport ?? {}
  return (
    type === "stdio" &&
    command === wanted.command &&
    JSON.stringify(args) === JSON.stringify(wanted.args) &&
    JSON.stringify(env ?? {}) === "{}" &&
    cwd === undefined
  )
}

/**
 * The demo's source runs this build's demo server, the one transport `demo` allows, exactly. A catalog made by
 * another build (or another checkout, or another Node), or whose demo source was changed, names another, which
 * would be refused: it is registered again.
 */
const registerDemoSource = async (server: RunningServer, demo: { command: string; args: string[] }) => {
  const { sources, store } = server.host
  const stored = await store.getSource("demo")
  if (stored && isDemoTransport(stored.config, demo)) return
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

type ServeInput = CommandInput<typeof serveFlags>

export const serveCommand = (input: ServeInput) => serve(input, false)
export const demoCommand = (input: ServeInput) => serve(input, true)

const serve = async ({ values: parsed, given }: ServeInput, demo: boolean) => {
  const flags = { ...parsed, db: parsed.db ?? defaultDb() }
  // a bad config file stops the boot before anything is opened
  const file = readServeConfig(configPathFor(flags.config))
  if (file && !file.ok) {
    for (const problem of file.problems) process.stderr.write(`switchboard: ${problem}\n`)
    process.stderr.write(`switchboard: the config file ${file.path} is not valid; nothing was started\n`)
    return 1
  }
  const config = file?.ok ? file.config : undefined
  const values = withFileSettings(flags, given, config)
  const retention = retentionFromFlags(values)
  if (!retention.ok) return fail(retention.message)
  const approvals = approvalsFromFlags(values, config?.approvals)
  if (!approvals.ok) return fail(approvals.message)
  // checked before anything is opened: a key that could never be verified is refused
  const adminKey = process.env[Auth.ADMIN_KEY_ENV]?.trim() || undefined
  const adminProblem = adminKey === undefined ? undefined : Auth.adminKeyProblem(adminKey)
  if (adminProblem !== undefined) return fail(adminProblem)
  const publicUrl = values["public-url"] === undefined ? undefined : checkPublicUrl(values["public-url"])
  if (publicUrl && !publicUrl.ok) return fail(`--public-url: ${publicUrl.message}`)
  const demoServer = demo ? demoServerCommand() : undefined
  const creating = isMissingFile(values.db)
  const server = await startServer({
    db: values.db,
    port: parsePort(values.port),
    hostname: values.host,
    // the demo runs its own MCP server over stdio, exactly as it registers it; any other stdio source still needs --allow-stdio
    allowStdio: stdioAllowance(values, demoServer ? [demoServer] : []),
    allowPrivateSources: values["allow-private-sources"],
    syncTtlMs: parseDuration(values["sync-ttl"]),
    requireKey: values["require-key"],
    publicUrl: publicUrl?.url,
    maxConnectionsPerAddress: parseConnectionsPerAddress(values["max-connections-per-address"]),
    ...withFileLimits(tuning(values), config),
    beforeListen: async (host) => {
      // the operator's admin key is a key before the first request can ask for one
      if (adminKey !== undefined && (await Auth.storeAdminKey(host.store, adminKey, Date.now())))
        process.stderr.write(`switchboard: stored $${Auth.ADMIN_KEY_ENV} as an admin key ("${Auth.ADMIN_KEY_NAME}")\n`)
      if (!config) return
      // the rules first: no source the file adds is callable before its block rules are in place
      const policies = await applyConfigPolicies(host, config.policies ?? [], host.logger)
      const report = await applyConfigSources(host, config.sources ?? [], {
        prune: flags.prune,
        logger: host.logger,
        progress: (namespace) => syncProgressLine(namespace),
        variables: file?.ok ? file.variables : undefined,
        folder: dirname(resolve(file!.path)),
      })
      process.stderr.write(
        `switchboard: config ${file!.path}: ${describeReport(report)}${describePolicies(policies)}\n`,
      )
    },
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
      live.length === 0
        ? "switchboard: every route but /healthz and /readyz needs an API key, and there is none: create the first, " +
            `an admin key, with: switchboard keys create <name> --scope admin${on} (or start with $${Auth.ADMIN_KEY_ENV} set to one); ` +
            `then give each agent an execute key: switchboard keys create <name> --scope execute${on}, or POST /v1/keys with the admin key\n`
        : `switchboard: every route but /healthz and /readyz needs an API key (${live.length} live); give an agent an execute key: ` +
            `switchboard keys create <name> --scope execute${on} (an admin key also manages keys over HTTP: /v1/keys)\n`,
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
      `try:\n  curl -s ${server.url}/v1/execute -H 'content-type: application/json' \\\n` +
        `    -d '{"code":"const r = await tools.demo.add({ a: 2, b: 3 }); return r.data"}'\n`,
    )
  }
  // it serves until a signal stops it; then the entry ends the process
  return new Promise<number>((resolve) => {
    const stop = () => void server.close().then(() => resolve(0))
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
  })
}
