/**
 * Where a person decides an approval in the web console: its page, `<server>/#/approvals/<id>`. The one definition
 * every paused text uses (the execute API's 202, the MCP tools' paused result, the CLI's), so a person can act
 * from a chat or a terminal.
 */

/** `server`: the server's origin as the caller reached it, such as `http://127.0.0.1:4747` */
export const approvalPageUrl = (server: string, approvalId: string) =>
  `${server.replace(/\/+$/, "")}/#/approvals/${encodeURIComponent(approvalId)}`

/** The origin a request reached: its scheme, and the Host it named (what the console's page was loaded from). */
export const requestOrigin = (request: Request) => {
  const url = new URL(request.url)
  return `${url.protocol}//${request.headers.get("host") ?? url.host}`
}
