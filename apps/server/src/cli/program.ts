/**
 * The `switchboard` command line as one commander program: every command and sub-command with its flags, usage and
 * examples (`--help` at any level), `--version`, and `completion bash|zsh|fish`. Commander is told never to exit
 * (`exitOverride`): the entry (src/cli.ts) ends the process once the output is flushed. A mistake commander finds
 * (an unknown option or command, a missing argument) is printed as `switchboard: <what>` with the command's usage.
 */
import { Argument, Command } from "commander"
import { addApprovalCommands } from "./approval-commands.js"
import { addCatalogCommands } from "./catalog-commands.js"
import { UNUSED, runs } from "./define.js"
import type { Outcome } from "./define.js"
import { KEY_ENV, URL_ENV } from "./flags.js"
import { addHostCommands } from "./host-commands.js"
import { addLocalCommands } from "./local-commands.js"
import { SHELLS } from "./shells.js"

/** the package's version (scripts/build-cli.mjs defines it; from the sources it is the workspace's) */
declare const SWITCHBOARD_VERSION: string | undefined
const version = typeof SWITCHBOARD_VERSION === "string" ? SWITCHBOARD_VERSION : "0.0.0-source"

const ROOT_NOTES = `
Where the catalog is:
  Every command but serve, demo, init and config works on a catalog that exists: a SQLite file or a postgres://
  URL in --db (default: $SWITCHBOARD_DB, $DATABASE_URL, ./.switchboard/switchboard.db); a file that is not there
  is an error (serve, demo and init create one). run, tools, sources, describe, call, executions, policies and
  approvals work on a running server instead with --url (or $${URL_ENV}), sending $${KEY_ENV} as the API key; a
  --db given wins over $${URL_ENV}, and --db with --url is an error.

Exit codes: 0 done; 1 the API (or the local catalog) answered an error, or a call failed; 2 a usage error (a flag,
  an argument, a --db); 3 run or call paused for a person's approval.

Examples:
  switchboard demo                                   serve the demo catalog on http://127.0.0.1:4747
  switchboard tools --query weather
  echo 'return (await tools.demo.add({ a: 2, b: 3 })).data' | switchboard run - --allow-stdio
  switchboard run --help                             any command's own usage and examples
  source <(switchboard completion bash)              completion for this shell (zsh, fish: see completion --help)
`

/**
 * The program, and where its command's exit code is left. `only`: the one command to declare (the command line's
 * first word), the others left out: a start builds what it runs. Without it (help, completion, an unknown
 * command), all of them.
 */
export const buildProgram = (only?: string): { program: Command; outcome: Outcome } => {
  const outcome: Outcome = { code: 0, rest: [] }
  const program = new Command("switchboard")
    .description("A sandboxed code-execution service for AI agents: its server, catalog and scripts")
    .version(`switchboard ${version}`, "-V, --version", "print the version")
    .helpOption("-h, --help", "print this command's usage and examples")
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, "switchboard: ")) })
    .helpCommand("help [command]", "print a command's usage and examples")
  program.addHelpText("after", ROOT_NOTES)
  // the commands are declared on this: the one asked for on the program itself, any other on nothing
  const declaring = new Proxy(program, {
    get: (target, key) =>
      key === "command"
        ? (nameAndArgs: string) =>
            only === undefined || nameAndArgs.split(" ")[0] === only ? target.command(nameAndArgs) : UNUSED
        : Reflect.get(target, key),
  })
  addHostCommands(declaring, outcome)
  addLocalCommands(declaring, outcome)
  addCatalogCommands(declaring, outcome)
  addApprovalCommands(declaring, outcome)

  // offered by completion, checked by the command (its message names the shells)
  const shell = new Argument("<shell>", SHELLS.join(", "))
  shell.argChoices = [...SHELLS]
  const completion = declaring
    .command("completion")
    .description("print a completion script for a shell: bash, zsh or fish")
    .addArgument(shell)
    .action(
      runs(outcome, async () => {
        const { completionCommand } = await import("../commands/completion.js")
        return (input) => completionCommand(program, input)
      }),
    )
  completion.addHelpText(
    "after",
    `
Examples:
  switchboard completion bash > ~/.local/share/bash-completion/completions/switchboard
      bash, from its next start (the script uses the bash-completion package)
  source <(switchboard completion bash)
      this bash only
  switchboard completion zsh > "\${fpath[1]}/_switchboard"
      zsh, from its next start
  switchboard completion fish > ~/.config/fish/completions/switchboard.fish
`,
  )
  // a first word that is no command: every command, for the error's list and its suggestion
  return only !== undefined && program.commands.length === 0 ? buildProgram() : { program, outcome }
}
