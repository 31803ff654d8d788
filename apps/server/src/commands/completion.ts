/**
 * `switchboard completion bash|zsh|fish`: a completion script for the shell, made from the command line's own
 * definition (src/cli/program.ts), so it offers exactly the commands, sub-commands, flags and choices that parse.
 * The scripts are effect's CLI completions (`effect/cli` Completions.generate: static scripts, no call back into
 * the CLI while completing), fed a description of the commander tree.
 */
import type { Command } from "commander"
import { Completions } from "effect/cli"
import type { CommandInput, FlagSpecs } from "../cli/define.js"
import { SHELLS } from "../cli/shells.js"
import { fail } from "./common.js"

/** flags and arguments whose value is a file: the shell offers paths */
const FILE_VALUES = new Set(["path", "file"])

const flagOf = (option: Command["options"][number]): Completions.FlagDescriptor => {
  const name = option.long!.slice(2)
  const valueName = /<([^>]+)>/.exec(option.flags)?.[1]
  const type: Completions.FlagType = option.isBoolean()
    ? { _tag: "Boolean" }
    : option.argChoices
      ? { _tag: "Choice", values: option.argChoices }
      : valueName && FILE_VALUES.has(valueName)
        ? { _tag: "Path", pathType: "file" }
        : { _tag: "String" }
  return {
    name,
    aliases: option.short ? [option.short.slice(1)] : [],
    description: option.description,
    type,
    negation: false,
  }
}

const describe = (command: Command): Completions.CommandDescriptor => ({
  name: command.name(),
  description: command.description(),
  flags: command.options.filter((option) => option.long !== undefined && !option.hidden).map(flagOf),
  arguments: command.registeredArguments.map((argument) => ({
    name: argument.name(),
    description: argument.description,
    required: argument.required,
    variadic: argument.variadic,
    type: argument.argChoices
      ? { _tag: "Choice", values: argument.argChoices }
      : FILE_VALUES.has(argument.name())
        ? { _tag: "Path", pathType: "file" }
        : { _tag: "String" },
  })),
  subcommands: command.commands.map(describe),
})

export const completionCommand = async (program: Command, { args }: CommandInput<FlagSpecs>) => {
  const shell = args[0] as (typeof SHELLS)[number]
  if (!SHELLS.includes(shell)) fail(`completion takes one of ${SHELLS.join(", ")} (got "${args[0]}")`)
  process.stdout.write(Completions.generate("switchboard", shell, describe(program)))
  return 0
}
