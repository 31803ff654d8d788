/** `switchboard config check|schema` (src/config/config-command.ts): it opens nothing, and loads no host. */
import type { CommandInput, FlagSpecs } from "../cli/define.js"
import { configCommand } from "../config/config-command.js"

export const configCheckCommand = async ({ args }: CommandInput<FlagSpecs>) => configCommand(["check", ...args])
export const configSchemaCommand = async () => configCommand(["schema"])
