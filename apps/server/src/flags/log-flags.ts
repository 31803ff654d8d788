/** The command-line flags for the log (`serve`, `demo`): `--log-level` and `--log-format`. */
import type { logFlags } from "../cli/flags.js"
import type { HostOptions } from "../compose.js"
import { LOG_FORMATS, LOG_LEVELS } from "../logging/logger.js"
import type { LogFormat, LogLevel } from "../logging/logger.js"

export type LogFlagValues = Partial<Record<keyof typeof logFlags, string>>

const oneOf = <T extends string>(choices: readonly T[], text: string): text is T =>
  (choices as readonly string[]).includes(text)

/** Turns the flags into host options; a value not among the choices goes to `fail` with a message. */
export const logSettings = (
  values: LogFlagValues,
  fail: (message: string) => never,
): Pick<HostOptions, "logLevel" | "logFormat"> => {
  const level = values["log-level"]
  const format = values["log-format"]
  if (level !== undefined && !oneOf<LogLevel>(LOG_LEVELS, level))
    return fail(`--log-level must be one of ${LOG_LEVELS.join(", ")} (got "${level}")`)
  if (format !== undefined && !oneOf<LogFormat>(LOG_FORMATS, format))
    return fail(`--log-format must be one of ${LOG_FORMATS.join(", ")} (got "${format}")`)
  return { logLevel: level, logFormat: format }
}
