/**
 * The per-call bounds on a tool call's path and arguments: maxToolArgBytes for one call, and
 * maxToolArgBytesInFlight for the calls whose result has not arrived. A refused call reaches no host; its path is
 * not named, since it may be what was too long.
 */
import type { RunLimits, ToolResult } from "@switchboard/core"

interface ArgumentsSize {
  /** exact, or (`exact` false) the UTF-16 length the prelude counted, a lower bound of the UTF-8 size */
  bytes: number
  exact: boolean
  /** bytes of the calls in flight, when it is their bound that refused it */
  inFlight?: number
}

const argumentsTooLarge = (limits: RunLimits, { bytes, exact, inFlight }: ArgumentsSize): ToolResult => {
  const size = `${exact ? "" : "at least "}${bytes} bytes`
  const message =
    inFlight === undefined
      ? `this tool call's path and arguments are ${size} of JSON, over maxToolArgBytes, the limit of ${limits.maxToolArgBytes} bytes per call`
      : `this tool call's path and arguments (${size} of JSON) would bring the calls in flight to ${exact ? "" : "at least "}${inFlight + bytes} bytes, ` +
        `over maxToolArgBytesInFlight, the limit of ${limits.maxToolArgBytesInFlight} bytes for calls whose result has not arrived: await some first`
  return { ok: false, error: { code: "tool_arguments_too_large", message } }
}

/**
 * By the prelude's count in UTF-16 units, before anything is copied out of the guest (a NaN, which it never sends, is
 * refused too). Undefined: within the bounds.
 */
export const refusedByCount = (limits: RunLimits, units: number, inflightBytes: number): ToolResult | undefined => {
  if (!(units <= limits.maxToolArgBytes)) return argumentsTooLarge(limits, { bytes: units, exact: false })
  if (inflightBytes + units > limits.maxToolArgBytesInFlight)
    return argumentsTooLarge(limits, { bytes: units, exact: false, inFlight: inflightBytes })
  return undefined
}

/** By the exact UTF-8 size, once copied out. Undefined: within the bounds. */
export const refusedBySize = (limits: RunLimits, bytes: number, inflightBytes: number): ToolResult | undefined => {
  if (bytes > limits.maxToolArgBytes) return argumentsTooLarge(limits, { bytes, exact: true })
  if (inflightBytes + bytes > limits.maxToolArgBytesInFlight)
    return argumentsTooLarge(limits, { bytes, exact: true, inFlight: inflightBytes })
  return undefined
}
