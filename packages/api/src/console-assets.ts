/**
 * The web console's built files (apps/console), served at `/` by every host that passes them. The files are static
 * and hold no data: the page speaks only the public API, with the key in a header. So they are answered before the
 * key check, but after the same Host check as the API (a rebound name gets no page either). Hashed files under
 * /assets/ are cached for good; index.html never, so a new build is seen at once. Every answer carries a strict
 * Content-Security-Policy: scripts, workers and style sheets only from this origin, no inline script, no framing.
 */
import type { MiddlewareHandler } from "hono"

export interface ConsoleFile {
  /** the file's text (the console's build emits no binary files) */
  body: string
  contentType: string
}

/** path (`/`, `/assets/index-3f2a1c.js`) to file; `/` is index.html */
export type ConsoleAssets = Readonly<Record<string, ConsoleFile>>

/** What index.html holds where each answer puts its nonce (`<meta name="csp-nonce" content="…">`). */
export const NONCE_PLACEHOLDER = "__CSP_NONCE__"

/**
 * The policy of every answer. The editor (CodeMirror) writes its theme into a style element, which carries the
 * page's nonce (index.html's meta tag, fresh for each answer), and sets a few style attributes (tab size, gutter
 * height); neither can run script.
 */
export const consoleCsp = (nonce?: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // the playground's type checker runs in a worker, from this origin
    "worker-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ")

/** the policy of the hashed files, which no nonce concerns */
export const CONSOLE_CSP = consoleCsp()

const newNonce = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, "")
}

const IMMUTABLE = "public, max-age=31536000, immutable"

/** `guard`: the API's request guard, whose refusal (a foreign Host) answers instead of the file */
export const serveConsole =
  (assets: ConsoleAssets, guard: MiddlewareHandler): MiddlewareHandler =>
  async (c, next) => {
    const method = c.req.method
    const path = c.req.path === "/index.html" ? "/" : c.req.path
    const file = method === "GET" || method === "HEAD" ? assets[path] : undefined
    if (!file) return next()
    let passed = false
    const refused = await guard(c, async () => {
      passed = true
    })
    if (!passed) return refused ?? c.res
    const nonce = path === "/" ? newNonce() : undefined
    return c.body(nonce ? file.body.replaceAll(NONCE_PLACEHOLDER, nonce) : file.body, 200, {
      "content-type": file.contentType,
      "cache-control": path === "/" ? "no-cache" : IMMUTABLE,
      "content-security-policy": consoleCsp(nonce),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    })
  }
