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
