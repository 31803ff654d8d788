import type { RunError, RunLimits } from "@switchboard/core"
import { boundText } from "./bounded-text.js"
import type { PreparedCode } from "./prepare-code.js"
import type { ThrownValue } from "./guest-calls.js"
import { runErrors } from "./run-errors.js"
import { positionInScript } from "./source-position.js"

/** Where the thrown value came from: compiling the script, or running it. */
export type ThrowPhase = "compile" | "run"

/**
 * Turns what the script threw (or QuickJS threw at it) into a RunError.
 * `null` is QuickJS's signature for running out of memory while it could not even allocate the error
 * object (JS_ThrowError2 throws null "to avoid recursing"), so a thrown null is reported as memory_limit;
 * a script that literally throws null is misreported, which we accept. The message is at most
 * `errorTextUnits` characters and says when it was cut (bounded-text.ts).
 */
export const classifyThrown = (
  thrown: ThrownValue | null,
  phase: ThrowPhase,
  code: PreparedCode,
  limits: RunLimits,
): RunError => {
  if (thrown === null) return runErrors.memoryLimit(limits)
  const { isError, name, message } = thrown
  if (isError && name === "InternalError") {
    if (message === "interrupted") return runErrors.timeout(limits)
    if (message === "out of memory") return runErrors.memoryLimit(limits)
    if (message === "stack overflow") return withPosition(runErrors.stackOverflow(limits), thrown, code)
  }
  if (isError && name === "RangeError" && /maximum call stack/i.test(message)) {
    return withPosition(runErrors.stackOverflow(limits), thrown, code)
  }
  if (phase === "compile" && isError && name === "SyntaxError") {
    return withPosition(
      { code: "syntax_error", message: boundText(`SyntaxError: ${message}`, thrown.cutFrom) },
      thrown,
      code,
    )
  }
  const text = isError ? `${name}: ${message}` : `Uncaught ${name === "string" ? JSON.stringify(message) : message}`
  return withPosition({ code: "runtime_error", message: boundText(text, thrown.cutFrom) }, thrown, code)
}

const withPosition = (error: RunError, thrown: ThrownValue, code: PreparedCode): RunError => {
  const position = positionInScript(thrown.stack, code)
  return position ? { ...error, line: position.line, column: position.column } : error
}
