/** The Node host's logger: one JSON line per event on stderr, so stdout stays free for the CLI and stdio MCP. */
import type { Logger } from "@switchboard/core"

const line = (level: string) => (message: string, details?: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...details })}\n`)

export const createStderrLogger = (): Logger => ({ error: line("error"), warn: line("warn"), info: line("info") })
