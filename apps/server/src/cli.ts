/**
 * `switchboard` — the command line; each command is a module in commands/, loaded only when it runs, so `tools`
 * never loads the HTTP app, the sandbox or the MCP SDK. Built (scripts/build-cli.mjs), this is dist/switchboard.mjs,
 * and each of those imports loads the bundle of the command's group through V8's code cache (src/load-built.ts).
 * From the sources (tsx) it loads build outputs as well: the sandbox's prelude and the bundles its worker threads
 * run, in the packages' dist/ folders. Without them Node stops at the first import with a bare
 * ERR_MODULE_NOT_FOUND, so the commands load behind this check, which says what to run instead.
 */
import { setFlagsFromString } from "node:v8"
import { endProcess, endQuietlyOnClosedPipe } from "./process-end.js"

const missingBuildOutput = (error: unknown): string | undefined => {
  const { code, url } = (error ?? {}) as { code?: unknown; url?: unknown }
  const where = typeof url === "string" ? url : error instanceof Error ? error.message : ""
  return code === "ERR_MODULE_NOT_FOUND" && where.includes("/dist/") ? where : undefined
}

/**
 * A server's execute path took about 3,000 requests to reach its warm speed (requests 501–1,500 ran at 2.4–2.6× warm
 * on this 2-core VM): the time V8 takes to tier its hottest functions up to optimized code, on the main thread and
 * in each worker (bench/warmup.ts; a busy-waiting pool, GC and SQLite were ruled out there). V8 optimizes a function
 * once it has run through `--interrupt-budget` bytes of bytecode (67,584 by default); a sixteenth of that gets a
 * long-running process there sooner (8,192 left requests 501–1,500 at 1.0–2.2× warm; 4,096 at 0.9–1.6× in 18
 * rounds, each run's median 1.1–1.3×; the cost is more compiling in the first 250 requests after boot). Set before
 * any command's code is loaded, and for every command: V8 refuses a
 * code cache written under other flags (src/load-built.ts), and serve, run and the catalog commands share the host
 * bundle's. Not over the same flag given to Node itself (`node --interrupt-budget=67584 switchboard.mjs serve`).
 */
const V8_FLAGS = ["--interrupt-budget=4096"]
/** V8 takes `--interrupt_budget` for `--interrupt-budget` */
const flagName = (flag: string) => flag.split("=")[0]!.replaceAll("_", "-")

/** each answers the exit code: only this entry ends the process (./process-end.ts) */
const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: async (args) => (await import("./commands/serve.js")).serveCommand(args, false),
  demo: async (args) => (await import("./commands/serve.js")).serveCommand(args, true),
  run: async (args) => (await import("./commands/run.js")).runCommand(args),
  tools: async (args) => (await import("./commands/tools.js")).toolsCommand(args),
  keys: async (args) => (await import("./commands/keys.js")).keysCommand(args),
  mcp: async (args) => (await import("./commands/mcp.js")).mcpCommand(args),
  config: async (args) => (await import("./commands/config.js")).configCliCommand(args),
  sources: async (args) => (await import("./commands/sources.js")).sourcesCommand(args),
  describe: async (args) => (await import("./commands/describe.js")).describeCommand(args),
  call: async (args) => (await import("./commands/call.js")).callCommand(args),
  executions: async (args) => (await import("./commands/executions.js")).executionsCommand(args),
  policies: async (args) => (await import("./commands/policies.js")).policiesCommand(args),
  approvals: async (args) => (await import("./commands/approvals.js")).approvalsCommand(args),
}

const [command, ...rest] = process.argv.slice(2)
for (const flag of V8_FLAGS)
  if (!process.execArgv.some((given) => flagName(given) === flagName(flag))) setFlagsFromString(flag)
endQuietlyOnClosedPipe()
const failed = (message: string) => {
  process.stderr.write(`switchboard: ${message}\n`)
  return 2
}
let code: number
try {
  const run = command !== undefined && Object.hasOwn(commands, command) ? commands[command] : undefined
  if (run) code = await run(rest)
  else {
    process.stdout.write((await import("./commands/usage.js")).usage())
    code = command === undefined || command === "help" || command === "--help" ? 0 : 2
  }
} catch (error) {
  const missing = missingBuildOutput(error)
  code = missing
    ? failed(
        `a build output is missing (${missing}). Build the packages with \`pnpm build\` at the repository root (bash scripts/setup does).`,
      )
    : failed(error instanceof Error ? error.message : String(error))
}
await endProcess(code)

// a module (top-level await), though it exports nothing
export {}
