import type { RunError, RunLimits } from "@switchboard/core"

/** Every limit's error names the limit, so a model reading it knows what to change. */
export const runErrors = {
  timeout: (limits: RunLimits): RunError => ({
    code: "timeout",
    message: `the script did not finish within the time limit of ${limits.timeoutMs} ms`,
  }),
  memoryLimit: (limits: RunLimits): RunError => ({
    code: "memory_limit",
    message: `the script ran out of memory: the limit is ${limits.memoryBytes} bytes`,
  }),
  stackOverflow: (limits: RunLimits): RunError => ({
    code: "stack_overflow",
    message: `the script overflowed its stack (too deep a recursion?): the limit is ${limits.stackBytes} bytes`,
  }),
  toolCallLimit: (limits: RunLimits): RunError => ({
    code: "tool_call_limit",
    message: `the script made more tool calls than the limit of ${limits.maxToolCalls}`,
  }),
  /** `bytes` is exact, or a lower bound when the guest found the text too long before copying it out */
  resultTooLarge: (limits: RunLimits, bytes: number, exact: boolean): RunError => ({
    code: "result_too_large",
    message: `the script's result is ${exact ? "" : "at least "}${bytes} bytes of JSON, over the limit of ${limits.maxResultBytes} bytes`,
  }),
  resultTooManyNodes: (limits: RunLimits, nodes: number): RunError => ({
    code: "result_too_large",
    message:
      `the script's result has ${nodes} keys and elements, over maxResultNodes, the limit of ${limits.maxResultNodes}: ` +
      "return less, such as a count, a page or a summary",
  }),
  /** the blocks passed to `emit` share the result's limit; `bytes` as for resultTooLarge */
  emittedTooLarge: (limits: RunLimits, bytes: number, exact: boolean): RunError => ({
    code: "result_too_large",
    message: `the content blocks the script emitted are ${exact ? "" : "at least "}${bytes} bytes of JSON, over the limit of ${limits.maxResultBytes} bytes`,
  }),
  resultNotSerializable: (reason: string): RunError => ({
    code: "result_not_serializable",
    message: `the script's result cannot be serialized as JSON: ${reason}`,
  }),
  neverSettled: (): RunError => ({
    code: "never_settled",
    message:
      "the script is waiting on a promise that nothing can settle: no tool call is in flight and no job is pending",
  }),
  aborted: (): RunError => ({ code: "aborted", message: "the run was aborted by its caller" }),
  internal: (what: string): RunError => ({ code: "internal_error", message: `the sandbox failed: ${what}` }),
}
