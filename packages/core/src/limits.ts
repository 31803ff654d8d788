/** The server's default run limits, and the least a request may lower each to. */
import type { RunLimits } from "./seams.js"

export const defaultLimits: RunLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxToolCalls: 1_000,
  maxResultBytes: 8 * 1024 * 1024,
  maxResultNodes: 50_000,
  maxLogLines: 1_000,
  maxLogBytes: 1024 * 1024,
  maxToolArgBytes: 1024 * 1024,
  maxToolArgBytesInFlight: 8 * 1024 * 1024,
}

export const LIMIT_KEYS = Object.keys(defaultLimits) as (keyof RunLimits)[]

/**
 * The least a limit may be set to, where less would fail every script with an error that names something
 * else: below about 8 KiB of stack QuickJS cannot even compile `return 1` ("SyntaxError: stack overflow").
 */
export const minimumLimits: Partial<Readonly<RunLimits>> = { stackBytes: 16 * 1024 }

/**
 * The limits a run gets: each one asked for, within the server's; one not asked for is the server's. A request may
 * lower any limit, never raise one. `timeoutMs` is the request's top-level field, which `asked.timeoutMs` overrides.
 */
export const limitsWithin = (
  server: RunLimits,
  asked: Partial<RunLimits> | undefined,
  timeoutMs?: number,
): RunLimits => {
  const merged = { ...server }
  for (const key of LIMIT_KEYS) {
    const value = key === "timeoutMs" ? (asked?.timeoutMs ?? timeoutMs) : asked?.[key]
    if (value !== undefined) merged[key] = Math.min(value, server[key])
  }
  return merged
}
