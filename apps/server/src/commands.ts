/**
 * The commands of `switchboard` (the command line, entered through cli.ts). `pnpm switchboard <command> --help`
 * from the repository root.
 */
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { SCOPES, SCOPE_DESCRIPTIONS, createDescribeService, effectiveScope, parseScopes } from "@switchboard/core"
import { readFileSync } from "node:fs"
import { fixtureCommand } from "@switchboard/fixtures"
import { createHost } from "./compose.js"
import { serveMcpStdio } from "./mcp-stdio.js"
import { logFlagOptions, logFlagsUsage, logSettings } from "./log-flags.js"
import { runtimeFlagOptions, runtimeFlagsUsage, runtimeTuning } from "./runtime-flags.js"
import type { RuntimeFlagValues } from "./runtime-flags.js"
import { isLoopback, startServer } from "./serve.js"
import { applyConfigSources, describeReport } from "./config/apply-config.js"
import { configCommand, configUsage } from "./config/config-command.js"
import { configPathFor, givenFlags, readServeConfig, withFileLimits, withFileSettings } from "./config/serve-config.js"
import { retentionFlagOptions, retentionFlagsUsage, retentionFromFlags } from "./retention-flags.js"
import { syncProgressLine } from "./sync-progress-line.js"

const DEFAULT_DB = "./.switchboard/switchboard.db"

const usage = `switchboard <command> [options]

commands:
  serve   start the HTTP server        --port 4747 --host 127.0.0.1 --db ${DEFAULT_DB} --allow-stdio --sync-ttl 15m --allow-private-sources
  demo    serve with the demo MCP source registered (namespace "demo")   same options as serve
  run     run a script file (or - for stdin) against the catalog and print its result   --db
  tools   list the catalog's tools     --db --query TEXT --namespace NS
  mcp     serve MCP over stdio (execute, describe, read_output, grep_output)   --db --allow-stdio --sync-ttl 15m
  config  ${configUsage.replaceAll("\n", "\n          ")}
  keys    API keys: keys create <name> --scope <scope> (prints the key once) | keys list | keys revoke <id>   --db
          a server listening beyond loopback (--host 0.0.0.0), or started with --require-key, needs one on every route but /healthz;
          there an admin key also manages keys over HTTP (POST /v1/keys, GET /v1/keys, DELETE /v1/keys/<id>)
          --scope (repeat it, or separate with commas; each includes the ones above it):
${SCOPES.map((s) => `            ${s.padEnd(8)} ${SCOPE_DESCRIPTIONS[s]}`).join("\n")}

source secrets are encrypted in the catalog with SWITCHBOARD_SECRET_KEY (32 bytes, base64: openssl rand -base64 32);
  without it a SQLite catalog makes a 0600 key file beside its database (x.db -> x.key); Postgres requires it

sources:
  --allow-stdio            stdio sources run a command on this host: without it none is started (add, sync or call), whoever added it
  --allow-private-sources  a server listening beyond loopback refuses http sources at loopback, private, link-local and metadata
                           addresses (after DNS resolution and on every redirect); this allows them. run and mcp listen nowhere: no check

config file (serve, demo): --config PATH (default ./switchboard.config.json when it exists) declares sources, limits and
  server settings; a flag given on the command line wins over the file. At boot its sources are applied: added,
  updated and re-synced when changed, kept when unchanged; a catalog source not in the file is kept, or removed with --prune

logs (serve, demo): request lines and events on stderr; metrics at GET /metrics (admin scope when keys are on);
  traces to an OTLP/HTTP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set
  ${logFlagsUsage}
retention (serve, demo):
  ${retentionFlagsUsage}

limits and sandbox workers (serve, demo, mcp, run; a request may lower a limit, never raise it):
  ${runtimeFlagsUsage}
  Scripts run in a pool of worker threads (--workers, default: the CPU count, at least 2); up to --queue
  executions wait for a worker (default 64, at least 8 per worker), past that an execution is refused at once (429).
`

const serveOptions = {
  port: { type: "string", default: "4747" },
  host: { type: "string", default: "127.0.0.1" },
  db: { type: "string", default: process.env.SWITCHBOARD_DB ?? process.env.DATABASE_URL ?? DEFAULT_DB },
  "allow-stdio": { type: "boolean", default: false },
  "allow-private-sources": { type: "boolean", default: false },
  "sync-ttl": { type: "string", default: "15m" },
  "require-key": { type: "boolean", default: false },
  config: { type: "string" },
  prune: { type: "boolean", default: false },
  help: { type: "boolean", default: false },
  ...runtimeFlagOptions,
  ...logFlagOptions,
  ...retentionFlagOptions,
} as const

const tuning = (values: RuntimeFlagValues) => {
  const parsed = runtimeTuning(values)
  return parsed.ok ? parsed.options : fail(parsed.message)
}

const fail = (message: string): never => {
  process.stderr.write(`switchboard: ${message}\n`)
  process.exit(2)
}

const parsePort = (text: string) => {
  const port = Number(text)
  return Number.isInteger(port) && port >= 0 && port < 65536
    ? port
    : fail(`--port must be a port number (got "${text}")`)
}

/** "90", "90s", "15m", "1h" -> milliseconds */
const parseDuration = (text: string) => {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text.trim())
  if (!match) return fail(`--sync-ttl must be a duration such as 900, 90s, 15m or 1h (got "${text}")`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s") as "ms" | "s" | "m" | "h"]
  return Number(match[1]) * unit
}

const serveCommand = async (args: string[], demo: boolean) => {
  const { values: flags, tokens } = parseArgs({ args, options: serveOptions, strict: true, tokens: true })
  if (flags.help) return void process.stdout.write(usage)
  // a bad config file stops the boot before anything is opened
  const file = readServeConfig(configPathFor(flags.config))
  if (file && !file.ok) {
    for (const problem of file.problems) process.stderr.write(`switchboard: ${problem}\n`)
    process.stderr.write(`switchboard: the config file ${file.path} is not valid; nothing was started\n`)
    process.exit(1)
  }
  const config = file?.ok ? file.config : undefined
  const values = withFileSettings(flags, givenFlags(tokens), config)
  const retention = retentionFromFlags(values)
  if (!retention.ok) return fail(retention.message)
  const server = await startServer({
    db: values.db,
    port: parsePort(values.port),
    hostname: values.host,
    // the demo runs its own fixture over stdio; any other stdio source still needs --allow-stdio
    allowStdio: values["allow-stdio"] || (demo ? { commands: [fixtureCommand("demo-server")] } : false),
    allowPrivateSources: values["allow-private-sources"],
    syncTtlMs: parseDuration(values["sync-ttl"]),
    requireKey: values["require-key"],
    ...withFileLimits(tuning(values), config),
    beforeListen: config
      ? async (host) => {
          const report = await applyConfigSources(host, config.sources ?? [], {
            prune: flags.prune,
            logger: host.logger,
            progress: (namespace) => syncProgressLine(namespace),
          })
          process.stderr.write(`switchboard: config ${file!.path}: ${describeReport(report)}\n`)
        }
      : undefined,
    ...logSettings(values, fail),
    retain: retention.retain,
  })
  if (!isLoopback(values.host) || values["require-key"]) {
    const live = (await server.host.keys.list()).filter((k) => k.revokedAt === null)
    process.stderr.write(
      `switchboard: every route but /healthz needs an API key (${live.length} live); create one with: pnpm switchboard keys create <name> --scope execute --db ${values.db} (an admin key also manages keys over HTTP: /v1/keys)\n`,
    )
  }
  if (!isLoopback(values.host)) {
    process.stderr.write(
      values["allow-private-sources"]
        ? "switchboard: http sources may reach private addresses (--allow-private-sources)\n"
        : "switchboard: http sources may not reach loopback, private, link-local or metadata addresses; --allow-private-sources allows them\n",
    )
  }
  if (demo && !(await server.host.store.getSource("demo"))) {
    const progress = syncProgressLine("demo")
    const added = server.host.sources
      .add(
        { namespace: "demo", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("demo-server") } },
        { onProgress: progress.onProgress },
      )
      .pipe(Effect.ensuring(Effect.sync(progress.end)))
    await Effect.runPromise(
      Effect.catch(added, (error) =>
        Effect.sync(() => process.stderr.write(`switchboard: could not register the demo source: ${error.message}\n`)),
      ),
    )
  }
  if (retention.retain) process.stderr.write(`switchboard: ${retention.notice}\n`)
  process.stdout.write(`switchboard listening on ${server.url} (catalog: ${values.db})\n`)
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

const runCommand = async (args: string[]) => {
  const { values, positionals } = parseArgs({
    args,
    options: { db: serveOptions.db, "allow-stdio": serveOptions["allow-stdio"], ...runtimeFlagOptions },
    allowPositionals: true,
  })
  const file = positionals[0] ?? fail("run needs a script file, or - to read stdin")
  const code = readFileSync(file === "-" ? 0 : file, "utf8")
  // one script: one worker unless --workers says otherwise
  const host = await createHost({ db: values.db, allowStdio: values["allow-stdio"], workers: 1, ...tuning(values) })
  const response = await Effect.runPromise(host.executor.execute({ code }))
  for (const log of response.logs) process.stderr.write(`[${log.level}] ${log.message}\n`)
  if (response.warning !== undefined) process.stderr.write(`warning: ${response.warning}\n`)
  if (response.ok)
    process.stdout.write(response.text.endsWith("\n") || response.text === "" ? response.text : `${response.text}\n`)
  else process.stderr.write(`error (${response.error.code}): ${response.error.message}\n`)
  await host.close()
  process.exit(response.ok ? 0 : 1)
}

const keysUsage = `keys create <name> --scope ${SCOPES.join("|")} | keys list | keys revoke <id>   (--db as for serve)`

const keysCommand = async (args: string[]) => {
  const { values, positionals } = parseArgs({
    args,
    options: { db: serveOptions.db, scope: { type: "string", multiple: true } },
    allowPositionals: true,
  })
  const [action, argument] = positionals
  // checked before the database is opened: a wrong scope changes nothing
  const scopes = action === "create" ? parseScopes(values.scope ?? []) : null
  if (scopes && !scopes.ok)
    fail(
      `${values.scope === undefined ? `keys create needs --scope (${SCOPES.join(", ")})` : scopes.error.message}\n  ${keysUsage}`,
    )
  const host = await createHost({ db: values.db, runtime: "in-thread" })
  try {
    if (action === "create" && argument && scopes?.ok) {
      const created = await host.keys.create(argument, scopes.value)
      process.stdout.write(`${created.key}\n`)
      process.stderr.write(
        `key "${created.name}" (id ${created.id}, scopes ${created.scopes.join(",")}) created; it is shown only this once\n`,
      )
    } else if (action === "list") {
      // stored scopes as they are; a key from before scopes were checked holds "*", which is admin
      const shown = (scopes: unknown) =>
        Array.isArray(scopes) && scopes.every((s) => (SCOPES as readonly unknown[]).includes(s))
          ? scopes.join(",")
          : `${effectiveScope(scopes)} (stored ${JSON.stringify(scopes)})`
      for (const key of await host.keys.list())
        process.stdout.write(
          `${key.id}\t${key.name}\t${shown(key.scopes)}\t${key.revokedAt === null ? "live" : "revoked"}\t${new Date(key.createdAt).toISOString()}\n`,
        )
    } else if (action === "revoke" && argument) {
      if (!(await host.keys.revoke(argument))) fail(`no key with id "${argument}"`)
    } else fail(keysUsage)
  } finally {
    await host.close()
  }
}

const toolsCommand = async (args: string[]) => {
  const { values } = parseArgs({
    args,
    options: { db: serveOptions.db, query: { type: "string" }, namespace: { type: "string" } },
  })
  // lists the catalog and runs no script: no worker pool
  const host = await createHost({ db: values.db, runtime: "in-thread" })
  // the same ranking as GET /v1/tools?query= and tools.$search
  const tools = values.query?.trim()
    ? await createDescribeService(host.store).search(values.query, { namespace: values.namespace })
    : await host.store.listTools({ namespace: values.namespace })
  for (const tool of tools) {
    process.stdout.write(`${tool.path}\t${(tool.description ?? "").split("\n")[0]}\n`)
  }
  await host.close()
}

const mcpCommand = async (args: string[]) => {
  const { values } = parseArgs({
    args,
    options: {
      db: serveOptions.db,
      "allow-stdio": serveOptions["allow-stdio"],
      "sync-ttl": serveOptions["sync-ttl"],
      help: serveOptions.help,
      ...runtimeFlagOptions,
    },
  })
  // stdout is the protocol stream: help goes to stderr here
  if (values.help) return void process.stderr.write(usage)
  const mcp = await serveMcpStdio({
    db: values.db,
    allowStdio: values["allow-stdio"],
    syncTtlMs: parseDuration(values["sync-ttl"]),
    ...tuning(values),
  })
  const stop = async () => {
    await mcp.close()
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  await mcp.ended
  process.exit(0)
}

const [command, ...rest] = process.argv.slice(2)
try {
  if (command === "serve") await serveCommand(rest, false)
  else if (command === "demo") await serveCommand(rest, true)
  else if (command === "run") await runCommand(rest)
  else if (command === "tools") await toolsCommand(rest)
  else if (command === "keys") await keysCommand(rest)
  else if (command === "mcp") await mcpCommand(rest)
  else if (command === "config") process.exit(configCommand(rest))
  else {
    process.stdout.write(usage)
    process.exit(command === undefined || command === "help" || command === "--help" ? 0 : 2)
  }
} catch (cause) {
  fail(cause instanceof Error ? cause.message : String(cause))
}
