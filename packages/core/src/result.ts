/**
 * The result contract (ARCHITECTURE.md: result contract): what `await tools.<ns>.<tool>(args)` resolves to inside a script.
 * One definition, imported by the executor, the sandbox prelude's types and describe.
 */

/** An MCP content block, kept as the server sent it (unknown block types pass through). */
export type ContentBlock = { type: string; [key: string]: unknown }

export interface ToolError {
  code: ToolErrorCode | (string & {})
  message: string
  data?: unknown
  content?: ContentBlock[]
  meta?: unknown
}

export type ToolResult<T = unknown> =
  | { ok: true; data: T; content?: ContentBlock[]; meta?: unknown }
  | { ok: false; error: ToolError }

/** Stable codes a script can branch on. */
export const ToolErrorCodes = {
  /** no tool at that path; the message suggests the closest names */
  toolNotFound: "tool_not_found",
  /** the tool itself reported failure (MCP `isError: true`) */
  upstreamError: "upstream_error",
  /** the source could not be reached, died mid-call, or answered with a protocol error */
  upstreamUnavailable: "upstream_unavailable",
  /** the tool call did not finish within its timeout */
  timeout: "tool_timeout",
  /** the arguments are not a JSON object */
  invalidArguments: "invalid_arguments",
  /** the call's arguments are past maxToolArgBytes, or would take the calls in flight past maxToolArgBytesInFlight */
  toolArgumentsTooLarge: "tool_arguments_too_large",
  /**
   * the tool's answer held more keys and elements than this server reads of one (maxToolResultNodes): it was not
   * read; the message names the bound. A narrower request (a page, a filter) fits
   */
  toolResultTooLarge: "tool_result_too_large",
  /** the execution ended (or its caller went away) while the call was in flight */
  aborted: "aborted",
  /** the execution already made as many tool calls as its limit allows */
  toolCallLimit: "tool_call_limit",
  /** the source's stored secrets do not decrypt with this server's key; the message names the source and the fix */
  sourceSecretsUnreadable: "source_secrets_unreadable",
  /** this server refuses to start the tool's source (a stdio source on a server without --allow-stdio) */
  sourceDisabled: "source_disabled",
  /** the source's address is loopback, private, link-local or metadata, and this server refuses those */
  privateAddress: "private_address",
  /** the stdio source's env sets a variable that makes its command load code, and this server refuses those */
  codeLoadingEnv: "code_loading_env",
  /**
   * the source needs an OAuth login that nobody has made (or the login it had is gone): the message names the command
   * that logs in (`switchboard sources login <namespace>`)
   */
  authRequired: "auth_required",
  /** the source's login expired for good (its refresh was refused, or the grant revoked): log in again, as the message says */
  authExpired: "auth_expired",
  /** the source answered with something that is not a tool result at all */
  invalidResult: "invalid_result",
  /** a policy rule blocks this tool; `error.data.rule` is the rule that matched. The call never reached the source */
  blocked: "blocked",
  /** the call needed an approval and a person declined it, or nobody decided in time; the message holds their note */
  declined: "declined",
  /** our own defect; the message carries a correlation id, the details are in the log */
  internal: "internal_error",
} as const
export type ToolErrorCode = (typeof ToolErrorCodes)[keyof typeof ToolErrorCodes]

export const okResult = <T>(data: T, extra?: { content?: ContentBlock[]; meta?: unknown }): ToolResult<T> => {
  const result: { ok: true; data: T; content?: ContentBlock[]; meta?: unknown } = { ok: true, data }
  if (extra?.content && extra.content.length > 0) result.content = extra.content
  if (extra?.meta !== undefined) result.meta = extra.meta
  return result
}

export const errResult = (
  code: ToolError["code"],
  message: string,
  extra?: Omit<ToolError, "code" | "message">,
): ToolResult<never> => {
  const error: ToolError = { code, message }
  if (extra?.data !== undefined) error.data = extra.data
  if (extra?.content && extra.content.length > 0) error.content = extra.content
  if (extra?.meta !== undefined) error.meta = extra.meta
  return { ok: false, error }
}
