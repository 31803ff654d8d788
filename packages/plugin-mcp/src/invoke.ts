/** `tools/call` with a permissive result schema: core decodes the envelope, so it arrives here as sent. */
import { z } from "zod"
import { ToolErrorCodes } from "@switchboard/core"
import type { InvokeContext, RawInvokeResult } from "@switchboard/core"
import { scrubSecrets } from "./config-secrets.js"
import { loadedClientSdk } from "./load-sdk.js"
import { findRefusal } from "./refusal.js"
import { findAuthNeeded } from "./oauth-fetch.js"
import { errorText, stderrTail, upstreamMessage } from "./upstream-text.js"
import type { McpSourceConfig } from "./config.js"
import type { McpConnection } from "./connection.js"
import { NotProcessed } from "./pool.js"
import { isUpstreamOverflow } from "./upstream-overflow.js"
import { resultTooLargeOf } from "./result-bound.js"

const AnyResult = z.unknown()

/** How much of an upstream error message is searched for an unknown-tool phrase; the phrase comes first. */
const UNKNOWN_TOOL_SCAN_CHARS = 500

/**
 * "unknown tool", "no such tool" or "tool … not found", case-insensitive, on a bounded prefix. Plain
 * indexOf: a pattern like /tool .* not found/ backtracks quadratically on a long upstream message.
 */
export const looksLikeUnknownTool = (message: string): boolean => {
  const head = message.slice(0, UNKNOWN_TOOL_SCAN_CHARS).toLowerCase()
  if (head.includes("unknown tool") || head.includes("no such tool")) return true
  const tool = head.indexOf("tool ")
  return tool >= 0 && head.indexOf(" not found", tool + "tool".length) >= 0
}

const failureMessage = (
  cause: unknown,
  connection: McpConnection,
  tool: string,
  config: McpSourceConfig,
): RawInvokeResult => {
  const refusal = findRefusal(cause)
  if (refusal) return { ok: false, code: refusal.code, message: refusal.message }
  const auth = findAuthNeeded(cause)
  if (auth) return { ok: false, code: auth.code, message: auth.message }
  // the upstream's own words: scrubbed of the source's secrets, cut short for an http source (upstream-text.ts)
  const upstream = (text: string) => upstreamMessage(config, text)
  // a stdio connection closed for what the server sent, so every request on it failed: that is the cause
  const closedFor = connection.overflow()
  // or this answer passed the http message bound: the connection stays
  const overflow = closedFor ?? (isUpstreamOverflow(cause) ? cause : undefined)
  if (overflow)
    return {
      ok: false,
      code: ToolErrorCodes.upstreamError,
      message: `"${tool}" failed: ${upstream(overflow.message)}${closedFor ? "; the connection was closed" : ""}`,
    }
  // a call's connection loaded the SDK: an McpError can only come from it
  const sdk = loadedClientSdk()
  if (sdk && cause instanceof sdk.McpError) {
    const { ErrorCode } = sdk
    const tooLarge = resultTooLargeOf(cause.data)
    if (tooLarge) {
      const count = (n: number) => n.toLocaleString("en-US")
      return {
        ok: false,
        code: ToolErrorCodes.toolResultTooLarge,
        message:
          `"${tool}" answered with more than ${count(tooLarge.maxNodes)} keys and elements (${count(tooLarge.nodes)}), ` +
          "the most this server reads of one tool result (maxToolResultNodes): it was not read. Ask for less, such as a page or a filter.",
      }
    }
    if (cause.code === ErrorCode.RequestTimeout)
      return {
        ok: false,
        code: ToolErrorCodes.timeout,
        message: `"${tool}" did not answer in time: ${upstream(cause.message)}`,
      }
    if (cause.code === ErrorCode.ConnectionClosed || !connection.isOpen()) {
      const stderr = connection.stderrTail()
      return {
        ok: false,
        code: ToolErrorCodes.upstreamUnavailable,
        message: `the MCP server closed the connection during "${tool}"${stderr ? `; its stderr ended with: ${upstream(stderrTail(stderr))}` : ""}`,
        retryable: true,
      }
    }
    if (cause.code === ErrorCode.InvalidParams && looksLikeUnknownTool(cause.message)) {
      return {
        ok: false,
        code: ToolErrorCodes.toolNotFound,
        message: `the MCP server does not know "${tool}": ${upstream(cause.message)}`,
        unknownTool: true,
      }
    }
    return { ok: false, code: ToolErrorCodes.upstreamError, message: upstream(cause.message) }
  }
  return {
    ok: false,
    code: ToolErrorCodes.upstreamUnavailable,
    message: `calling "${tool}" failed: ${upstream(errorText(cause))}`,
    retryable: true,
  }
}

/**
 * Maps a failed request to a value the script can branch on; the message carries no configured secret and no more
 * than an excerpt of an http upstream's text.
 */
export const callFailureMessage = (
  cause: unknown,
  connection: McpConnection,
  tool: string,
  config: McpSourceConfig,
): RawInvokeResult => {
  const failure = failureMessage(cause, connection, tool, config)
  // the whole message too: a tool name a script chose may spell a secret
  return failure.ok ? failure : { ...failure, message: scrubSecrets(config, failure.message) }
}

/**
 * The SDK's McpServer answers an unknown tool with an `isError` result ("MCP error -32602: Tool X not found")
 * rather than a JSON-RPC error; both mean our catalog is behind the server's.
 */
const isUnknownToolResult = (raw: unknown, tool: string): boolean => {
  if (typeof raw !== "object" || raw === null || (raw as { isError?: unknown }).isError !== true) return false
  const content = (raw as { content?: unknown }).content
  const first =
    Array.isArray(content) && content.length === 1 ? (content[0] as { type?: unknown; text?: unknown }) : null
  return (
    first?.type === "text" &&
    typeof first.text === "string" &&
    first.text.includes(`Tool ${tool} not found`) &&
    first.text.includes("-32602")
  )
}

/** an error the SDK made: from an answer, or its own timeout or cancellation (a call's connection loaded the SDK) */
const isMcpError = (cause: unknown) => {
  const sdk = loadedClientSdk()
  return sdk !== undefined && cause instanceof sdk.McpError
}

const abortedCall = (tool: string): RawInvokeResult => ({
  ok: false,
  code: ToolErrorCodes.aborted,
  message: `the call to "${tool}" was cancelled because its execution was aborted`,
})

/**
 * The calls in flight under each execution's signal. The SDK adds an abort listener to the signal it is given and
 * never removes it, and the execution's signal outlives many calls, so each call gets a signal of its own. One
 * listener per execution aborts them all: a listener per call would pass the signal's listener limit (and warn)
 * once a script makes more than ten calls at once.
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>()

const linkedTo = (signal: AbortSignal | undefined): { call: AbortController; unlink: () => void } => {
  const call = new AbortController()
  if (!signal) return { call, unlink: () => {} }
  let calls = inFlight.get(signal)
  if (!calls) {
    const linked = new Set<AbortController>()
    calls = linked
    inFlight.set(signal, linked)
    signal.addEventListener(
      "abort",
      () => {
        for (const each of linked) each.abort(signal.reason)
      },
      { once: true },
    )
  }
  calls.add(call)
  const held = calls
  return { call, unlink: () => held.delete(call) }
}

export const callTool = async (
  connection: McpConnection,
  config: McpSourceConfig,
  tool: string,
  args: unknown,
  ctx: InvokeContext,
): Promise<RawInvokeResult> => {
  if (ctx.signal?.aborted) return abortedCall(tool)
  const { call, unlink } = linkedTo(ctx.signal)
  try {
    const raw = await connection.client.request(
      { method: "tools/call", params: { name: tool, arguments: args as Record<string, unknown> } },
      AnyResult,
      // the SDK takes a duration: counted here, at each attempt, so a call the pool sends again gets only what is left
      { timeout: Math.max(1, ctx.deadline - Date.now()), signal: call.signal },
    )
    if (isUnknownToolResult(raw, tool))
      return {
        ok: false,
        code: ToolErrorCodes.toolNotFound,
        message: `the MCP server does not know "${tool}"`,
        unknownTool: true,
      }
    return { ok: true, raw }
  } catch (cause) {
    // the SDK reports its own cancellation as a RequestTimeout, which would read as the tool being slow
    if (call.signal.aborted) return abortedCall(tool)
    // A request whose send failed (an HTTP error, a reset) has no answer coming, but the SDK keeps waiting for one:
    // its handler, holding the arguments, stays until the connection closes. Aborting runs the SDK's cancel, which
    // drops it (and tells the server). An McpError came with an answer, or from the SDK's own timeout: nothing waits.
    if (!isMcpError(cause)) call.abort()
    // not processed upstream, so the pool may send it again on a new session; a dropped call is not resent: its tool may have run
    const loss = connection.lossOf(cause)
    if (loss === "session_gone" || loss === "refused") throw new NotProcessed({ cause })
    return callFailureMessage(cause, connection, tool, config)
  } finally {
    unlink()
  }
}
