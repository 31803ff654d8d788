/**
 * How the CLI's commands are declared on commander (https://github.com/tj/commander.js): each command's flags as
 * plain data (`FlagSpecs`), which become commander options with their help, and whose parsed values a command's
 * module receives keyed by the flag's own name (`values["allow-stdio"]`), with the set of flags given on the command
 * line. A command's work sits in its module in src/commands/, loaded by `import()` only when the command runs (the
 * build turns that import into its group's bundle, src/load-built.ts); it answers the exit code.
 */
import type { Command } from "commander"
import { Option } from "commander"
import { isUsageError } from "../usage-error.js"

export interface FlagSpec {
  /** the value's name in the help (`--db <path>`); a flag without one is a switch */
  value?: string
  help: string
  default?: string
  /** repeatable: every value, in order */
  multiple?: boolean
  /** the values it takes, for the help and the shell's completion; the command checks them, naming the flag */
  choices?: readonly string[]
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>

/** what a command receives for its flags: a switch is a boolean; a value a string, or every value when repeatable */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F]: F[K] extends { value: string }
    ? F[K] extends { multiple: true }
      ? string[] | undefined
      : F[K] extends { default: string }
        ? string
        : string | undefined
    : boolean
}

export interface CommandInput<F extends FlagSpecs> {
  values: FlagValues<F>
  /** the positional arguments, in order */
  args: string[]
  /** the flags given on the command line (a flag at its default is not) */
  given: ReadonlySet<string>
  /** what followed a command's pass-through flag (`sources add <ns> --stdio <command> [args...]`) */
  rest: string[]
}

export type CommandWork<F extends FlagSpecs> = (input: CommandInput<F>) => Promise<number>

/** commander spells `--no-approvals` as the negation of an `approvals` option: the flag's own name is kept here */
const negated = (name: string) => name.startsWith("no-")

/**
 * What a command not asked for is declared on: it takes any call and does nothing. A start builds only the command
 * it runs (./program.ts): each declared option costs a little, and there are some 250.
 */
export const UNUSED: Command = new Proxy(() => {}, { get: () => UNUSED, apply: () => UNUSED }) as unknown as Command

export const addFlags = (command: Command, flags: FlagSpecs) => {
  if (command === UNUSED) return command
  for (const [name, spec] of Object.entries(flags)) {
    const option = new Option(spec.value ? `--${name} <${spec.value}>` : `--${name}`, spec.help)
    // shown in the help and offered by completion, not checked by commander: the command's own message names the flag
    if (spec.choices) option.argChoices = [...spec.choices]
    if (spec.default !== undefined) option.default(spec.default)
    if (spec.multiple) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    command.addOption(option)
  }
  return command
}

/** the command's flag values by flag name, and the names of those given on the command line */
export const parsedFlags = (command: Command) => {
  const values: Record<string, unknown> = {}
  const given = new Set<string>()
  for (const option of command.options) {
    const name = option.long!.slice(2)
    const key = option.attributeName()
    const value = command.getOptionValue(key)
    values[name] = negated(name) ? value === false : option.isBoolean() ? value === true : value
    if (command.getOptionValueSource(key) === "cli") given.add(name)
  }
  return { values, given }
}

/** where a command's exit code is kept until the entry ends the process */
export interface Outcome {
  code: number
  /** set by the entry before parsing: what followed a pass-through flag */
  rest: string[]
}

/**
 * The action of a command whose work `load` imports. A `UsageError` it throws is printed here, where the command is
 * known: `switchboard: <message>`, then the command's usage when the error asks for it; exit 2.
 */
export const runs =
  <F extends FlagSpecs>(outcome: Outcome, load: () => Promise<CommandWork<F>>) =>
  async (...params: unknown[]) => {
    const command = params.at(-1) as Command
    const { values, given } = parsedFlags(command)
    try {
      const work = await load()
      outcome.code = await work({ values: values as FlagValues<F>, args: [...command.args], given, rest: outcome.rest })
    } catch (error) {
      if (!isUsageError(error)) throw error
      process.stderr.write(`switchboard: ${error.message}\n${error.withUsage ? `\n${command.helpInformation()}` : ""}`)
      outcome.code = 2
    }
  }

/** a command's examples, after its help: each a command line and what it does */
export const examples = (command: Command, lines: readonly (readonly [string, string?])[]) =>
  command.addHelpText(
    "after",
    `\nExamples:\n${lines.map(([line, what]) => `  ${line}${what ? `\n      ${what}` : ""}`).join("\n")}\n`,
  )
