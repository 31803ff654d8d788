/** One JSON object per event on the console: what `wrangler tail` and Workers Logs show. */
import type { Logger } from "@switchboard/core"

const line =
  (level: "error" | "warn" | "info", write: (text: string) => void) =>
  (message: string, details?: Record<string, unknown>) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, message, ...details }))

export const consoleLogger: Logger = {
  error: line("error", (text) => console.error(text)),
  warn: line("warn", (text) => console.warn(text)),
  info: line("info", (text) => console.log(text)),
}
