/**
 * Where people reach this server, and the pages built from it: the web console's page of an approval,
 * `<server>/#/approvals/<id>`, which every paused text uses (the execute API's 202, the MCP tools' paused result, the
 * CLI's), so a person can act from a chat or a terminal; and the OAuth callback a login sends the browser back to
 * (routes/source-login.ts). Behind a proxy the address a request reached is not the one people use: the host's
 * `publicUrl` (`switchboard serve --public-url`) is, for all of them.
 */

/** `server`: the server's base URL as people reach it, such as `http://127.0.0.1:4747` */
export const approvalPageUrl = (server: string, approvalId: string) =>
  `${server.replace(/\/+$/, "")}/#/approvals/${encodeURIComponent(approvalId)}`

/** The origin a request reached: its scheme, and the Host it named (what the console's page was loaded from). */
export const requestOrigin = (request: Request) => {
  const url = new URL(request.url)
  return `${url.protocol}//${request.headers.get("host") ?? url.host}`
}

/** The base URL people reach this server at: the host's public URL when it has one, else the request's origin. */
export const serverBase = (request: Request, publicUrl: string | undefined) =>
  publicUrl === undefined ? requestOrigin(request) : publicUrl

/**
 * A public URL as the app keeps it, without a trailing slash, or why it cannot be one: an absolute http(s) URL with
 * no user, query or fragment. A path is kept (a proxy that serves this server under `/switchboard` strips it).
 */
export const checkPublicUrl = (text: string): { ok: true; url: string } | { ok: false; message: string } => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, message: `the public URL must be an absolute http or https URL (got "${text}")` }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, message: `the public URL must be http or https (got "${url.protocol}")` }
  if (url.username || url.password || url.search || url.hash)
    return {
      ok: false,
      message: `the public URL must be the server's base URL alone, with no user, query or fragment (got "${url.origin}…")`,
    }
  return { ok: true, url: url.href.replace(/\/+$/, "") }
}
