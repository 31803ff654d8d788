/** `switchboard config check|schema` (src/config/config-command.ts): it opens nothing, and loads no host. */
import { configCommand } from "../config/config-command.js"

export const configCliCommand = async (args: string[]) => configCommand(args)
