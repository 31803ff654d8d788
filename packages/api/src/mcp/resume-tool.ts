/**
 * `resume`: goes on with an execution that paused for a person's approval. It waits, bounded, for the decision
 * (taken over HTTP, with the CLI, or asked here where the client supports elicitation) and for the resumed run,
 * and answers it as `execute` would have; an execution that already ended answers its stored result.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"
import * as Auth from "@switchboard/core/auth"
import { summaryOf } from "./run-result.js"
import type { McpToolCall } from "./services.js"
import { RESUME_WAIT_MS, awaitResume, resultOf, settle } from "./settle.js"
import { errorResult, inputSchemaOf, parseArgs } from "./tool-result.js"

const resumeInput = z.object({
  executionId: z.string().min(1).describe("the execution a paused execute result named"),
})

export const resumeTool: Tool = {
  name: "resume",
  description:
    `Go on with a paused execution: waits up to ${RESUME_WAIT_MS / 1000} s for the decision and the resumed run, ` +
    "then returns the result as execute does, or what it waits for next. An ended execution returns its result.",
  inputSchema: inputSchemaOf(resumeInput),
  annotations: { title: "Resume a paused execution", openWorldHint: true },
}

export const callResume = async (call: McpToolCall, args: unknown): Promise<CallToolResult> => {
  const { services, caller, signal } = call
  const parsed = parseArgs(resumeInput, args)
  if (!parsed.ok) return errorResult(parsed.error.message)
  const { executionId } = parsed.value
  // another key's execution is "no execution", word for word, as on GET /v1/executions/:id
  const execution = await Auth.readExecutionAs(services.store, caller, executionId)
  if (!execution) return errorResult(`no execution "${executionId}"`)
  services.executed?.(executionId)
  if (execution.status !== "paused") return resultOf({ kind: "stored", execution }, services)
  // the newest approval is the one it waits on: a resumed run that paused again has a new one
  const [approval] = await services.approvals.list(caller, { executionId, limit: 1 })
  if (!approval) return errorResult(`execution "${executionId}" is paused, but no approval of it was found`)
  // still undecided, and a person here to ask: ask, as execute does
  if (approval.status === "pending" && call.ask) {
    const paused = { executionId, approval: summaryOf(approval), logs: execution.logs }
    return settle(call, { kind: "paused", paused })
  }
  return settle(call, await awaitResume(services, approval, signal))
}
