/**
 * The web console's built files (apps/console), served at `/` by every host that passes them. The files are static
 * and hold no data: the page speaks only the public API, with the key in a header. So they are answered before the
 * key check, but after the same Host check as the API (a rebound name gets no page either). Hashed files under
 * /assets/ are cached for good; index.html never, so a new build is seen at once. Every answer carries a strict
 * Content-Security-Policy: scripts and styles only from this origin, no inline script, no framing.
 */
import type { MiddlewareHandler } from "hono"

export interface ConsoleFile {
  /** the file's text (the console's build emits no binary files) */
  body: string
  contentType: string
}

/** path (`/`, `/assets/index-3f2a1c.js`) to file; `/` is index.html */
export type ConsoleAssets = Readonly<Record<string, ConsoleFile>>

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ")

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
    return c.body(file.body, 200, {
      "content-type": file.contentType,
      "cache-control": path === "/" ? "no-cache" : IMMUTABLE,
      "content-security-policy": CONSOLE_CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    })
  }
