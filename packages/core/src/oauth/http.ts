/**
 * Every request OAuth makes (metadata, registration, token, the probe of a resource) goes through the host's fetch:
 * the same egress guard as http sources (the Node host refuses private addresses unless allowed, and throws a
 * `SourceRefusal`). On top of it, here: https only, but for a loopback host; no redirect followed (a metadata or
 * token endpoint that redirects is refused, so no hop escapes the guard's check); an answer read to 1 MiB at most,
 * and each request given 15 s.
 */
import { SourceRefusalCodes } from "../seams.js"

export type OAuthFetch = (url: string, init: RequestInit) => Promise<Response>

export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024
export const OAUTH_REQUEST_TIMEOUT_MS = 15_000

/** A request OAuth will not make, or an answer it will not read: a value for the caller to report, never a defect. */
export class OAuthHttpError extends Error {
  readonly _tag = "OAuthHttpError"
  constructor(
    message: string,
    readonly code: "private_address" | "insecure_url" | "too_large" | "unreachable",
  ) {
    super(message)
  }
}

export const isOAuthHttpError = (value: unknown): value is OAuthHttpError =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "OAuthHttpError"

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** RFC 6761's `localhost` names and the loopback literals: where plain http carries nothing off the machine. */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  return host === "localhost" || host.endsWith(".localhost") || LOOPBACK_V4.test(host) || host === "[::1]"
}

/** The egress guard's refusal, found by its tag in an error or its causes (fetch wraps what a guard throws). */
const refusalIn = (cause: unknown): { message: string } | null => {
  let current = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const tagged = current as { _tag?: unknown; code?: unknown; message?: unknown; cause?: unknown }
    if (tagged._tag === "SourceRefusal" && tagged.code === SourceRefusalCodes.privateAddress)
      return { message: String(tagged.message) }
    current = tagged.cause
  }
  return null
}

/** The body read to `max` bytes at most, as a new Response with the same status and headers. */
const bounded = async (response: Response, max: number): Promise<Response> => {
  if (!response.body) return response
  const reader = response.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => undefined)
      throw new OAuthHttpError(
        `the answer from ${new URL(response.url || "http://unknown").origin} passed ${max} bytes`,
        "too_large",
      )
    }
    parts.push(value)
  }
  const body = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    body.set(part, at)
    at += part.byteLength
  }
  return new Response(response.status === 204 || response.status === 304 ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}

/** The URL's origin for a message: never its path or query, which may carry a code or a token. */
export const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return "(not a URL)"
  }
}

/** OAuth's fetch over the host's: checked, unredirected, bounded and timed. */
export const oauthFetch =
  (fetchFn: typeof fetch = fetch, maxBytes = MAX_OAUTH_RESPONSE_BYTES): OAuthFetch =>
  async (url, init) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new OAuthHttpError("a metadata document named a URL that does not parse", "insecure_url")
    }
    if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && isLoopbackHost(parsed.hostname)))
      throw new OAuthHttpError(
        `OAuth requests go over https only (or plain http to this machine's loopback), not to ${parsed.origin}`,
        "insecure_url",
      )
    const timeout = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS)
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    let response: Response
    try {
      response = await fetchFn(parsed.href, { ...init, redirect: "manual", signal })
    } catch (cause) {
      const refusal = refusalIn(cause)
      if (refusal) throw new OAuthHttpError(refusal.message, "private_address")
      throw new OAuthHttpError(
        `could not reach ${parsed.origin}: ${cause instanceof Error ? cause.message : String(cause)}`,
        "unreachable",
      )
    }
    return bounded(response, maxBytes)
  }
