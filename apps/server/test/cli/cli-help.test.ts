/**
 * The built CLI's own help (issue 25 §5): every command and sub-command answers --help with its usage and examples,
 * exit 0; an unknown option is named with that command's usage, exit 2; --version; and completion scripts that
 * complete the commands, sub-commands, flags and a flag's choices.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { builtCli, builtDir } from "../support/built-cli.js"
import { runCli } from "../support/run-cli.js"

/** every command line the CLI has, with an argument each takes where it needs one */
const commands: string[][] = [
  ["serve"],
  ["demo"],
  ["mcp"],
  ["run"],
  ["tools"],
  ["init"],
  ["keys"],
  ["keys", "create"],
  ["keys", "list"],
  ["keys", "revoke"],
  ["config"],
  ["config", "check"],
  ["config", "schema"],
  ["sources"],
  ["sources", "list"],
  ["sources", "add"],
  ["sources", "sync"],
  ["sources", "remove"],
  ["describe"],
  ["call"],
  ["executions"],
  ["executions", "list"],
  ["executions", "show"],
  ["executions", "output"],
  ["policies"],
  ["policies", "list"],
  ["policies", "add"],
  ["policies", "remove"],
  ["approvals"],
  ["approvals", "list"],
  ["approvals", "show"],
  ["approvals", "approve"],
  ["approvals", "decline"],
  ["completion"],
]

it.each(commands.map((command) => [command.join(" "), command]))(
  "%s --help prints its own usage and examples, exit 0",
  async (name, command) => {
    const help = await runCli([...command, "--help"])
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout.startsWith(`Usage: switchboard ${name} `), help.stdout).toBe(true)
    expect(help.stdout).toContain("\nExamples:\n  switchboard ")
    expect(help.stderr).toBe("")
  },
  30_000,
)

it("switchboard, switchboard --help and switchboard help <command> print the usage, exit 0; --version the package's version", async () => {
  for (const args of [[], ["--help"], ["help"]]) {
    const root = await runCli(args)
    expect(root.status, args.join(" ")).toBe(0)
    expect(root.stdout).toMatch(/^Usage: switchboard /)
    for (const command of ["serve", "run", "tools", "init", "sources", "executions", "approvals", "completion"])
      expect(root.stdout).toContain(`\n  ${command} `)
  }
  const helpRun = await runCli(["help", "run"])
  expect(helpRun.stdout).toMatch(/^Usage: switchboard run /)
  const { version } = JSON.parse(readFileSync(join(builtDir, "package.json"), "utf8"))
  for (const flag of ["--version", "-V"]) {
    const shown = await runCli([flag])
    expect(shown.status).toBe(0)
    expect(shown.stdout).toBe(`switchboard ${version}\n`)
  }
}, 30_000)

it("an unknown option or command is named with that command's usage, exit 2, and nothing is run", async () => {
  for (const [args, named, usage] of [
    [["run", "two.ts", "--frob"], "unknown option '--frob'", "Usage: switchboard run "],
    [["tools", "--qeury", "x"], "unknown option '--qeury'", "Usage: switchboard tools "],
    [["executions", "list", "--offset", "1"], "unknown option '--offset'", "Usage: switchboard executions list "],
    [["keys", "create", "a", "--scopes", "admin"], "unknown option '--scopes'", "Usage: switchboard keys create "],
    [["sources", "frob"], "unknown command 'frob'", "Usage: switchboard sources "],
    [["approvals", "approve"], "missing required argument 'id'", "Usage: switchboard approvals approve "],
  ] as const) {
    const refused = await runCli([...args])
    expect(refused.status, args.join(" ")).toBe(2)
    expect(refused.stderr, args.join(" ")).toContain(`switchboard: ${named}`)
    expect(refused.stderr, args.join(" ")).toContain(usage)
    expect(refused.stdout, args.join(" ")).toBe("")
  }
}, 60_000)

/**
 * What bash offers after the words given, through the script `switchboard completion bash` prints. The script
 * calls bash-completion's `_init_completion`: the package's own where it is installed; where it is not, a
 * stand-in that sets the same four variables from COMP_WORDS (the package is not part of this repository's setup).
 */
const bashCompletes = (...words: string[]) => {
  const library = "/usr/share/bash-completion/bash_completion"
  const setup = existsSync(library)
    ? `source ${library}`
    : '_init_completion() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }'
  const script = `${setup}
source <("${process.execPath}" "${builtCli}" completion bash)
COMP_WORDS=("$@"); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}; COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
_switchboard
printf '%s\\n' "\${COMPREPLY[@]}"`
  const done = spawnSync("bash", ["-c", script, "bash", "switchboard", ...words], { encoding: "utf8" })
  expect(done.status, done.stderr).toBe(0)
  return done.stdout.split("\n").filter((line) => line !== "")
}

it("completion bash completes commands, sub-commands, flags and the choices of a flag or an argument", () => {
  expect(bashCompletes("exe")).toEqual(["executions"])
  expect(bashCompletes("executions", "")).toEqual(["list", "show", "output"])
  expect(bashCompletes("executions", "list", "--st")).toEqual(["--status"])
  expect(bashCompletes("executions", "list", "--status", "")).toEqual(["ok", "error", "paused"])
  expect(bashCompletes("run", "--model")).toEqual(["--model-text"])
  expect(bashCompletes("tools", "--na")).toEqual(["--namespace"])
  expect(bashCompletes("completion", "")).toEqual(["bash", "zsh", "fish"])
}, 60_000)

it("completion zsh and fish print their shells' scripts for the same commands; another shell is refused, exit 2", async () => {
  const zsh = await runCli(["completion", "zsh"])
  expect(zsh.status).toBe(0)
  expect(zsh.stdout.startsWith("#compdef switchboard")).toBe(true)
  for (const word of ["executions", "--model-text", "--status"]) expect(zsh.stdout).toContain(word)
  const fish = await runCli(["completion", "fish"])
  expect(fish.status).toBe(0)
  expect(fish.stdout).toContain("complete -c switchboard")
  expect(fish.stdout).toMatch(/__fish_seen_subcommand_from executions.* -a 'list'/)
  const other = await runCli(["completion", "tcsh"])
  expect(other.status).toBe(2)
  expect(other.stderr).toContain('completion takes one of bash, zsh, fish (got "tcsh")')
}, 30_000)
