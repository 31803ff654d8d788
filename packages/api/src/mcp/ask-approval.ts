/**
 * Asking the client's person to decide a paused call, with an elicitation (MCP's `elicitation/create`, form mode).
 * Only where the client declared the capability and the transport can carry a request from the server: stdio.
 * The stateless streamable HTTP endpoint (./http.ts) cannot: its JSON answer has no stream to send a request
 * on (the SDK's transport drops it), and the client's reply would be a new POST, reaching a fresh server that
 * knows nothing of the question. There, `execute` answers the paused text instead.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { ElicitRequestFormParams, RequestId } from "@modelcontextprotocol/sdk/types.js"
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js"
import type * as Executor from "@switchboard/core/executor"
import * as Approvals from "@switchboard/core/approvals"
import { parseRequest } from "@switchboard/core"
import { jsonSchemaOf } from "../wire/json-schema.js"
import { escapeUnsafe, safeJson } from "../args-preview.js"
import { wholeArgsAt } from "./run-result.js"

/** What the person said: a decision, or why there is none (the question was dismissed, or could not be asked). */
export type Answer = { ok: true; decision: Approvals.DecisionRequest } | { ok: false; why: string }

export type AskApproval = (approval: Executor.ApprovalSummary, signal: AbortSignal) => Promise<Answer>

const decisionSchema = jsonSchemaOf(Approvals.decisionRequest, "input") as ElicitRequestFormParams["requestedSchema"]

/**
 * The form: core's `decisionRequest`, the body POST /v1/approvals/:id takes, in MCP's flat subset of JSON Schema
 * (a `decision` enum, an optional `note` string).
 */
export const decisionForm: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: decisionSchema.properties,
  required: decisionSchema.required,
}

/**
 * The most characters of arguments a question holds. A person is asked only about a call they can read whole:
 * one whose arguments are longer is not asked about in the client (the paused text says where to read and decide it).
 */
export const QUESTION_ARGS_CHARS = 8_000

/** The question, with the whole arguments; null when they are too long to ask about in a client's dialog. */
export const questionOf = (approval: Executor.ApprovalSummary): string | null => {
  const args = safeJson(approval.args, 2)
  if (args.length > QUESTION_ARGS_CHARS) return null
  return (
    `Approve ${escapeUnsafe(approval.tool)} with these arguments?\n${args}\nReason: ${escapeUnsafe(approval.reason)}. ` +
    `Undecided by ${new Date(approval.expiresAt).toISOString()}, it counts as declined.`
  )
}

/**
 * The SDK checks an accepted form's content against the schema it asked with. The one schema this server asks
 * with is checked by its own zod definition; any other is refused. It stands in for the SDK's default Ajv
 * validator, which would be built per request and compiles schemas with `new Function`, refused on Workers.
 */
export const decisionValidator: jsonSchemaValidator = {
  getValidator: <T>(schema: unknown) => {
    return (input: unknown) => {
      if (schema !== decisionForm)
        return { valid: false, data: undefined, errorMessage: "switchboard validates no other client-supplied schema" }
      const parsed = parseRequest(Approvals.decisionRequest, input)
      return parsed.ok
        ? { valid: true, data: parsed.value as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: parsed.error.message }
    }
  },
}

/** setTimeout's largest delay: an approval that waits longer (a TTL of weeks) is asked about for this long. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Asks over `server`, tied to the tools/call `relatedRequestId` it answers. The question lasts until the approval
 * expires (a decision after that is refused), or until the tool call is cancelled (`signal`).
 */
export const askThrough =
  (server: Server, relatedRequestId: RequestId): AskApproval =>
  async (approval, signal) => {
    const timeout = Math.min(MAX_TIMER_MS, Math.max(1, approval.expiresAt - Date.now()))
    const message = questionOf(approval)
    if (message === null)
      return {
        ok: false,
        why: `The call's arguments are too long to show whole in a question; read them at ${wholeArgsAt(approval.id)}, and decide there.`,
      }
    try {
      const result = await server.elicitInput(
        { mode: "form", message, requestedSchema: decisionForm },
        { relatedRequestId, signal, timeout },
      )
      if (result.action === "decline") return { ok: true, decision: { decision: "decline" } }
      if (result.action === "cancel")
        return { ok: false, why: "The question in your client was dismissed without an answer." }
      const parsed = parseRequest(Approvals.decisionRequest, result.content ?? {})
      return parsed.ok
        ? { ok: true, decision: parsed.value }
        : { ok: false, why: `Your client's answer was no decision (${parsed.error.message}).` }
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause)
      return { ok: false, why: `Asking in your client failed (${message}).` }
    }
  }
