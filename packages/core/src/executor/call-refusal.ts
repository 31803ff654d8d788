/**
 * The checks a resolved call passes before it reaches its source: not blocked by policy, its source's secrets
 * readable, its arguments an object that fits the tool's input schema. A call that fails one is answered here.
 */
import type { Logger } from "../errors.js"
import { isRecord } from "../is-record.js"
import type { EffectivePolicy } from "../policy/policy.js"
import { ToolErrorCodes, errResult } from "../result.js"
import { createArgumentCheck } from "./argument-check.js"
import type { CallOutcome, ResolvedTool } from "./call-outcome.js"
import type { ScriptCall } from "./execution.js"

/** A `blocked` call's result: the rule that matched rides in `error.data`. */
const blocked = (path: string, policy: EffectivePolicy) =>
  errResult(ToolErrorCodes.blocked, `${path} is blocked by policy: ${policy.reason}`, {
    data: { rule: policy.rule },
  })

const isPlainArgs = (args: unknown) => args === undefined || isRecord(args)

/** Why the call may not be made, or undefined when it may. */
export const createCallRefusal = (logger: Logger) => {
  const checkArguments = createArgumentCheck(logger)

  return ({ source, tool, policy }: ResolvedTool, { path, args }: ScriptCall): CallOutcome | undefined => {
    if (policy.action === "block")
      return { result: blocked(path, policy), encoding: tool.encoding, source: source.namespace }
    // a call that cannot run whatever a person decides fails now: nobody is asked to approve it
    if (source.secretsError)
      return {
        result: errResult(ToolErrorCodes.sourceSecretsUnreadable, source.secretsError),
        encoding: tool.encoding,
        source: source.namespace,
      }
    if (!isPlainArgs(args)) {
      const got = Array.isArray(args) ? "an array" : args === null ? "null" : typeof args
      return {
        result: errResult(ToolErrorCodes.invalidArguments, `arguments to "${path}" must be an object, got ${got}`),
        encoding: tool.encoding,
        source: source.namespace,
      }
    }
    const mismatch = checkArguments(tool, path, args ?? {})
    if (mismatch)
      return {
        result: errResult(ToolErrorCodes.invalidArguments, mismatch.message, { data: { errors: mismatch.errors } }),
        encoding: tool.encoding,
        source: source.namespace,
      }
    return undefined
  }
}
