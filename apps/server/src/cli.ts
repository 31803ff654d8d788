/**
 * `switchboard` — the command line's entry: the commander program (./cli/program.ts) parses the arguments, and each
 * command's work is a module in commands/, loaded only when it runs, so `tools` never loads the HTTP app, the
 * sandbox or the MCP SDK, and `--help` or a usage error loads none. Built (scripts/build-cli.mjs), this is
 * dist/switchboard.mjs, and each of those imports loads the bundle of the command's group through V8's code cache
 * (src/load-built.ts). From the sources (tsx) it loads build outputs as well: the sandbox's prelude and the bundles
 * its worker threads run, in the packages' dist/ folders. Without them Node stops at the first import with a bare
 * ERR_MODULE_NOT_FOUND, so the commands load behind this check, which says what to run instead. This is the one
 * place that ends the process (./process-end.ts): once stdout and stderr are flushed.
 */
import { setFlagsFromString } from "node:v8"
import { buildProgram } from "./cli/program.js"
import { endProcess, endQuietlyOnClosedPipe } from "./process-end.js"

/** commander's own exit (help, version, or a mistake it printed), turned into a throw by `exitOverride` */
const isCommanderExit = (error: unknown): error is { exitCode: number } =>
  typeof (error as { code?: unknown } | null)?.code === "string" &&
  (error as { code: string }).code.startsWith("commander.") &&
  typeof (error as { exitCode?: unknown }).exitCode === "number"

const missingBuildOutput = (error: unknown): string | undefined => {
  const { code, url } = (error ?? {}) as { code?: unknown; url?: unknown }
  const where = typeof url === "string" ? url : error instanceof Error ? error.message : ""
  return code === "ERR_MODULE_NOT_FOUND" && where.includes("/dist/") ? where : undefined
}

/**
 * A server's execute path takes thousands of requests to reach its warm speed: the time V8 takes to tier its hottest
 * functions up to optimized code, on the main thread and in each worker (bench/warmup.ts, whose figures are in
 * bench/README.md). V8 optimizes a function once it has run through `--interrupt-budget` bytes of bytecode (67,584
 * by default); a sixteenth of that gets a long-running process there sooner, at the cost of more compiling in the
 * first requests after boot. Set before
 * any command's code is loaded, and for every command: V8 refuses a
 * code cache written under other flags (src/load-built.ts), and serve, run and the catalog commands share the host
 * bundle's. Not over the same flag given to Node itself (`node --interrupt-budget=67584 switchboard.mjs serve`).
 */
const V8_FLAGS = ["--interrupt-budget=4096"]
/** V8 takes `--interrupt_budget` for `--interrupt-budget` */
const flagName = (flag: string) => flag.split("=")[0]!.replaceAll("_", "-")

/** what `sources add <ns> --stdio <command> [args...]` hands the source as its command line, unparsed */
const PASS_THROUGH = "--stdio"

for (const flag of V8_FLAGS)
  if (!process.execArgv.some((given) => flagName(given) === flagName(flag))) setFlagsFromString(flag)
endQuietlyOnClosedPipe()
const failed = (message: string) => {
  process.stderr.write(`switchboard: ${message}\n`)
  return 2
}
const argv = process.argv.slice(2)
// the command run is the only one declared; help and completion describe them all
const first = argv[0]
const whole = first === undefined || first.startsWith("-") || first === "help" || first === "completion"
const { program, outcome } = buildProgram(whole ? undefined : first)
const cut = argv[0] === "sources" && argv[1] === "add" ? argv.indexOf(PASS_THROUGH) : -1
if (cut >= 0) outcome.rest = argv.slice(cut + 1)
let code: number
try {
  if (argv.length === 0) {
    program.outputHelp()
    code = 0
  } else {
    await program.parseAsync(cut >= 0 ? argv.slice(0, cut + 1) : argv, { from: "user" })
    code = outcome.code
  }
} catch (error) {
  const missing = missingBuildOutput(error)
  code = isCommanderExit(error)
    ? // --help and --version exit 0; a mistake commander found (and printed, with the usage) is a usage error
      error.exitCode === 0
      ? 0
      : 2
    : missing
      ? failed(
          `a build output is missing (${missing}). Build the packages with \`pnpm build\` at the repository root (bash scripts/setup does).`,
        )
      : failed(error instanceof Error ? error.message : String(error))
}
await endProcess(code)

// a module (top-level await), though it exports nothing
export {}
