/** `--sync-ttl` and the config file's `server.syncTtl`, one grammar for both: "900" (seconds), "90s", "15m", "1h", "500ms". */
export const SYNC_TTL_FORM = "a duration such as 900, 90s, 15m or 1h"

/** also the JSON Schema's `pattern`, so that an editor flags a wrong one */
export const SYNC_TTL_PATTERN = /^(\d+)(ms|s|m|h)?$/

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

/** milliseconds, or null when the text is not such a duration */
export const parseSyncTtl = (text: string): number | null => {
  const match = SYNC_TTL_PATTERN.exec(text.trim())
  return match ? Number(match[1]) * UNIT_MS[(match[2] ?? "s") as keyof typeof UNIT_MS] : null
}
