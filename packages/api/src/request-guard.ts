/**
 * Browser-borne requests (ARCHITECTURE.md: safety). On loopback the API needs no key, so any web page the
 * operator opens could call it: a "simple" cross-origin POST (text/plain, a form, a Blob) needs no CORS preflight,
 * and a DNS name rebound to 127.0.0.1 lets a page call the server as its own origin. Adding a stdio source runs a
 * command, so each such request is refused, on every route but /healthz and /readyz:
 * - Host: with `allowedHosts`, a Host header naming anything else is 403 `forbidden_host`. This check is
 *   the one that stops DNS rebinding, where the page's origin and the Host both name the attacker's domain.
 * - Origin: a request that carries `Origin` must come from this server's own origin, else 403
 *   `forbidden_origin`. Browsers send Origin on every cross-origin request that can change state.
 *   Command-line and MCP clients send none.
 * - Content type: a request with a body, or a POST/PUT/PATCH/DELETE that names a content type, must name
 *   `application/json`, else 415 `unsupported_media_type`. A browser cannot send JSON cross-origin without a
 *   preflight, and this server never approves one.
 */
import type { Context, MiddlewareHandler } from "hono"
import { errorResponse } from "./http-errors.js"
import { PROBE_PATHS } from "./probes.js"

interface HostPort {
  hostname: string
  /** null: any port */
  port: number | null
}

// a bracketed IPv6 literal, or a name or IPv4 address; then an optional port
const HOST = /^(\[[0-9a-f:.]+\]|[^\s:/?#[\]@]+)(?::(\d{1,5}))?$/i

/** The hostname as a URL spells it, the way an Origin is parsed: lower case, and "127.1" as "127.0.0.1". */
const canonical = (hostname: string) => {
  try {
    return new URL(`http://${hostname}`).hostname
  } catch {
    return null
  }
}

const parseHost = (text: string): HostPort | null => {
  const match = HOST.exec(text.trim())
  const hostname = match ? canonical(match[1]!) : null
  return hostname ? { hostname, port: match![2] === undefined ? null : Number(match![2]) } : null
}

/** An `allowedHosts` entry: `host` (any port) or `host:port`. A bare IPv6 address such as "::1" is bracketed. */
const parseAllowed = (entry: string): HostPort => {
  const text = !entry.startsWith("[") && entry.split(":").length > 2 ? `[${entry}]` : entry
  const parsed = parseHost(text)
  if (!parsed)
    throw new Error(`allowedHosts: ${JSON.stringify(entry)} is not a host name, an address, or either with ":port"`)
  return parsed
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/** `application/json`, with or without parameters such as `; charset=utf-8`. */
const isJson = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType.trim())

/**
 * In HTTP/1.1 a request has a body exactly when it carries Content-Length or Transfer-Encoding (RFC 9112
 * §6.1). The headers decide here, not `request.body`, which the Node adapter sets on every POST.
 */
const hasBody = (c: Context) => {
  const length = c.req.header("content-length")
  return c.req.header("transfer-encoding") !== undefined || (length !== undefined && !/^\s*0+\s*$/.test(length))
}

/** The authority the request was sent to: the Host header, else what the runtime put in the URL. */
const requestHost = (c: Context) => c.req.header("host") ?? new URL(c.req.url).host

// 80 and 443 are the default ports of http and https: "x", "x:80" and an Origin of https://x all name x's
// default port. Schemes are not compared, so a TLS proxy that keeps the Host does not make every Origin foreign.
const portKey = (port: number | null) => (port === null || port === 80 || port === 443 ? "" : String(port))

const sameAuthority = (origin: string, host: string) => {
  const ours = parseHost(host)
  let theirs: URL
  try {
    theirs = new URL(origin)
  } catch {
    return false // "null" (a sandboxed frame, a file:// page) or garbage
  }
  return (
    ours !== null &&
    theirs.hostname === ours.hostname &&
    portKey(theirs.port === "" ? null : Number(theirs.port)) === portKey(ours.port)
  )
}

export interface RequestGuardOptions {
  /** Host values this server answers to; unset, the Host check is skipped (see createApp's AppOptions) */
  allowedHosts?: readonly string[]
}

export const requestGuard = ({ allowedHosts }: RequestGuardOptions = {}): MiddlewareHandler => {
  if (allowedHosts !== undefined && allowedHosts.length === 0)
    throw new Error("allowedHosts is empty, so every request would be refused; leave it unset to skip the Host check")
  const allowed = allowedHosts?.map(parseAllowed)
  const allowedText = allowedHosts?.join(", ")

  const hostAllowed = (host: string) => {
    const parsed = parseHost(host)
    return (
      parsed !== null &&
      allowed!.some((a) => a.hostname === parsed.hostname && (a.port === null || a.port === (parsed.port ?? 80)))
    )
  }

  return async (c, next) => {
    if (PROBE_PATHS.has(c.req.path)) return next()

    const host = requestHost(c)
    if (allowed && !hostAllowed(host)) {
      return errorResponse(
        c,
        "forbidden_host",
        `this server does not answer to Host ${JSON.stringify(host)} (it answers to ${allowedText}); ` +
          "a DNS name pointed at a loopback address is refused, to stop DNS rebinding",
        403,
      )
    }

    const origin = c.req.header("origin")
    if (origin !== undefined && !sameAuthority(origin, host)) {
      return errorResponse(
        c,
        "forbidden_origin",
        `requests from web pages at other origins are refused (Origin ${JSON.stringify(origin)}, this server is ${JSON.stringify(host)}); ` +
          "clients that are not browsers send no Origin",
        403,
      )
    }

    const contentType = c.req.header("content-type")
    const declared = contentType !== undefined && !SAFE_METHODS.has(c.req.method)
    if ((hasBody(c) || declared) && !isJson(contentType ?? "")) {
      const got = contentType === undefined ? "no content-type" : `content-type ${JSON.stringify(contentType)}`
      return errorResponse(
        c,
        "unsupported_media_type",
        `send the body as JSON with "content-type: application/json" (got ${got})`,
        415,
      )
    }
    return next()
  }
}
