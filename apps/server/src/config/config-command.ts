/**
 * `switchboard config check [path]`: checks a config file (syntax, schema, every `${NAME}` set) without starting
 * anything, opening a database or reaching a source; exit 0 when it is good, 1 when it is not.
 * `switchboard config schema`: prints the file's JSON Schema (what `pnpm build` writes to
 * apps/server/dist/switchboard.config.schema.json).
 */
import { DEFAULT_CONFIG_PATH, loadConfigFile } from "./config-file.js"
import { configJsonSchema } from "./config-schema.js"

export const configUsage = `config check [path]   check a config file (default ${DEFAULT_CONFIG_PATH}) without starting anything; exit 0 or 1
config schema         print the config file's JSON Schema`

export const configCommand = (args: string[]): number => {
  const [action, path, ...rest] = args
  if (action === "schema" && path === undefined) {
    process.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`)
    return 0
  }
  if (action === "check" && rest.length === 0) {
    const file = path ?? DEFAULT_CONFIG_PATH
    const loaded = loadConfigFile(file)
    if (!loaded.ok) {
      for (const problem of loaded.problems) process.stderr.write(`${problem}\n`)
      return 1
    }
    const sources = loaded.config.sources ?? []
    const policies = loaded.config.policies?.length ?? 0
    const names = sources.length ? `: ${sources.map((s) => s.namespace).join(", ")}` : ""
    const rules = policies ? `; ${policies} policy rule${policies === 1 ? "" : "s"}` : ""
    process.stdout.write(`${file}: ok (${sources.length} source${sources.length === 1 ? "" : "s"}${names}${rules})\n`)
    return 0
  }
  process.stderr.write(`${configUsage}\n`)
  return 2
}
