/**
 * One call: the request built from the tool's binding, sent through the host's fetch (its egress guard) within the
 * source's timeout and the execution's life, and the answer read (./read-response.ts). An operation whose security
 * the source's OAuth login meets gets its token from core first (./login-token.ts), and is sent once more with a new
 * one after a 401. Failures are values: `private_address` (the guard refused), `aborted` (the execution ended),
 * `tool_timeout`, `upstream_unavailable` (not reached), `auth_required` and `auth_expired` (a login to make),
 * `http_<status>`.
 */
import { RunErrorCodes, ToolErrorCodes, findRefusal } from "@switchboard/core"
import type { InvokeContext, RawInvokeResult } from "@switchboard/core"
import type { OperationBinding } from "../binding.js"
import { chosenAlternative, credentialsFor, loginSchemeIn } from "./auth.js"
import { buildRequest } from "./build-request.js"
import type { SourceRequestConfig } from "./build-request.js"
import { loginToken } from "./login-token.js"
import type { CallLogin } from "./login-token.js"
import { excerpt, readResponse } from "./read-response.js"
import type { ResponseLimits } from "./read-response.js"

export type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>

export interface CallOptions {
  fetch: Fetch
  binding: OperationBinding
  args: Record<string, unknown>
  config: SourceRequestConfig & { timeoutMs?: number }
  ctx: InvokeContext
  limits: ResponseLimits
  scrub: (text: string) => string
  /** header names that carry this source's credentials, kept out of `meta.headers` */
  hiddenHeaders: ReadonlySet<string>
  /** `<namespace>.<tool>`, for messages */
  path: string
  defaultTimeoutMs: number
  /** the source's OAuth login, for an operation whose security it meets (absent on a host without OAuth) */
  login: CallLogin
}

const causeText = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const inner = (cause as { cause?: unknown }).cause
  return cause.message === "fetch failed" && inner instanceof Error ? `fetch failed: ${inner.message}` : cause.message
}

export const callOperation = async (options: CallOptions): Promise<RawInvokeResult> => {
  const { ctx, config, path, binding } = options
  const alternative = chosenAlternative(binding.security, config)
  const build = (authorization: string | null) =>
    buildRequest(binding, options.args, config, credentialsFor(alternative, config.auth, authorization))
  // the arguments are checked before a token is asked for
  const checked = build(null)
  if (!checked.ok) return { ok: false, code: ToolErrorCodes.invalidArguments, message: `${path}: ${checked.message}` }
  const scheme = loginSchemeIn(alternative, config)
  const token = scheme ? await loginToken(options.login, scheme) : null
  if (token && !token.ok) return token.failure
  // the source's timeout, never past the execution's deadline
  const timeoutMs = Math.max(1, Math.min(config.timeoutMs ?? options.defaultTimeoutMs, ctx.deadline - Date.now()))
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const onAbort = () => controller.abort(ctx.signal?.reason)
  if (ctx.signal?.aborted) controller.abort(ctx.signal.reason)
  else ctx.signal?.addEventListener("abort", onAbort, { once: true })
  const send = (authorization: string | null) => {
    const built = build(authorization)
    if (!built.ok) throw new Error(built.message)
    return options.fetch(built.url, { ...built.init, signal: controller.signal })
  }
  try {
    let response = await send(token?.authorization ?? null)
    if (response.status === 401 && token) {
      const again = await token.rejected(response.headers.get("www-authenticate"))
      if (!again.ok || again.authorization !== null) await response.body?.cancel().catch(() => undefined)
      if (!again.ok) return again.failure
      if (again.authorization !== null) {
        response = await send(again.authorization)
        if (response.status === 401) {
          await response.body?.cancel().catch(() => undefined)
          return token.refusedAgain()
        }
      }
    }
    return await readResponse(response, options.scrub, options.limits, options.hiddenHeaders)
  } catch (cause) {
    const refusal = findRefusal(cause)
    if (refusal) return { ok: false, code: refusal.code, message: refusal.message }
    if (timedOut)
      return {
        ok: false,
        code: ToolErrorCodes.timeout,
        message: `${path} took longer than ${timeoutMs} ms`,
        retryable: true,
      }
    if (ctx.signal?.aborted)
      return { ok: false, code: RunErrorCodes.aborted, message: `${path} was cancelled: its execution ended` }
    return {
      ok: false,
      code: ToolErrorCodes.upstreamUnavailable,
      message: `${path} could not reach the service: ${excerpt(options.scrub(causeText(cause)))}`,
      retryable: true,
    }
  } finally {
    clearTimeout(timer)
    ctx.signal?.removeEventListener("abort", onAbort)
  }
}
