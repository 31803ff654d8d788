/**
 * The command-line flags for the server's execution limits and its worker pool, shared by `serve`, `demo`,
 * `mcp` and `run`. Each limit flag sets the server's ceiling; a request may lower it, never raise it.
 */
import type { RunLimits } from "@switchboard/core"
import { minimumLimits } from "@switchboard/core"
import { maxStackBytes } from "@switchboard/runtime-quickjs/node"
import type { runtimeFlags } from "../cli/flags.js"
import { fail } from "../commands/common.js"
import type { HostOptions } from "../compose.js"

export type RuntimeFlagValues = Partial<Record<keyof typeof runtimeFlags, string>>

/** The host options the flags set; a bad value stops the command with its message (exit 2). */
export const tuning = (
  values: RuntimeFlagValues,
): Pick<HostOptions, "limits" | "workers" | "queue" | "maxToolResultNodes"> => {
  const parsed = runtimeTuning(values)
  return parsed.ok ? parsed.options : fail(parsed.message)
}

/** flag -> the limit it sets, and the unit the flag is written in */
const limitFlags: [keyof typeof runtimeFlags, keyof RunLimits, number][] = [
  ["timeout-ms", "timeoutMs", 1],
  ["memory-mb", "memoryBytes", 1 << 20],
  ["stack-kb", "stackBytes", 1 << 10],
  ["max-tool-calls", "maxToolCalls", 1],
  ["max-result-mb", "maxResultBytes", 1 << 20],
  ["max-result-nodes", "maxResultNodes", 1],
  ["max-log-lines", "maxLogLines", 1],
  ["max-log-kb", "maxLogBytes", 1 << 10],
  ["max-tool-arg-kb", "maxToolArgBytes", 1 << 10],
  ["max-tool-args-in-flight-mb", "maxToolArgBytesInFlight", 1 << 20],
]

/** Turns the flags into host options; a value that is not a positive whole number is an error message. */
export const runtimeTuning = (
  values: RuntimeFlagValues,
):
  | { ok: true; options: Pick<HostOptions, "limits" | "workers" | "queue" | "maxToolResultNodes"> }
  | { ok: false; message: string } => {
  const limits: Partial<RunLimits> = {}
  const options: Pick<HostOptions, "limits" | "workers" | "queue" | "maxToolResultNodes"> = {}
  const read = (flag: keyof typeof runtimeFlags, min: number): number | string | undefined => {
    const text = values[flag]
    if (text === undefined) return undefined
    const value = Number(text)
    return Number.isInteger(value) && value >= min
      ? value
      : `--${flag} must be a whole number of at least ${min} (got "${text}")`
  }
  for (const [flag, limit, unit] of limitFlags) {
    const value = read(flag, 1)
    if (typeof value === "string") return { ok: false, message: value }
    if (value !== undefined) limits[limit] = value * unit
  }
  const leastStack = minimumLimits.stackBytes!
  if (limits.stackBytes !== undefined && limits.stackBytes < leastStack) {
    return {
      ok: false,
      message: `--stack-kb must be at least ${leastStack / 1024}: a smaller stack cannot even compile a script (got "${values["stack-kb"]}")`,
    }
  }
  if (limits.stackBytes !== undefined && limits.stackBytes > maxStackBytes) {
    const most = maxStackBytes / 1024
    return {
      ok: false,
      message: `--stack-kb must be at most ${most}: the QuickJS build's C stack is 5 MiB, and past it every script fails (got "${values["stack-kb"]}")`,
    }
  }
  const workers = read("workers", 1)
  const queue = read("queue", 0)
  const toolResultNodes = read("max-tool-result-nodes", 1)
  if (typeof toolResultNodes === "string") return { ok: false, message: toolResultNodes }
  if (toolResultNodes !== undefined) options.maxToolResultNodes = toolResultNodes
  if (typeof workers === "string") return { ok: false, message: workers }
  if (typeof queue === "string") return { ok: false, message: queue }
  if (Object.keys(limits).length > 0) options.limits = limits
  if (workers !== undefined) options.workers = workers
  if (queue !== undefined) options.queue = queue
  return { ok: true, options }
}
