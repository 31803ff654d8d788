/**
 * `switchboard sources login <namespace>`: a person logs a source in with OAuth. On the local catalog, the browser
 * comes back to a loopback listener on this machine (`http://127.0.0.1:<port>/callback`, RFC 8252), which finishes
 * the login here; with `--url`, the server hands out the URL and its own callback finishes it, and this command waits
 * until the source's `auth` says so, then for its tools. The URL goes to stdout alone on its line (a script may open
 * it); what to do with it, to stderr. The command ends once it has printed: the listener's connections are closed
 * with their pages, and the entry ends the process (src/process-end.ts) whatever a browser keeps open.
 */
import { createServer } from "node:http"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type * as Sources from "@switchboard/core/sources"
import type { sourcesLoginFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import type { CatalogClient } from "../catalog-client/catalog-client.js"
import { CatalogClientError } from "../catalog-client/catalog-client.js"
import { printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"

const POLL_MS = 1_000

const say = (text: string) => process.stderr.write(`${text}\n`)

const page = (res: ServerResponse, status: number, title: string, text: string) => {
  const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  // the browser opens no more on this connection: it closes once the page is sent, so none outlives the command
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
  })
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
      `<body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`,
  )
}

const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve(server))
  })

/** The first request to `/callback` that carries a state, or null when `until` passes first. */
const nextCallback = (server: Server, until: number) =>
  new Promise<{ query: URLSearchParams; res: ServerResponse } | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), Math.max(0, until - Date.now()))
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      if (url.pathname !== "/callback" || !url.searchParams.has("state"))
        return page(res, 404, "Not here", "This is a login's callback.")
      clearTimeout(timer)
      resolve({ query: url.searchParams, res })
    })
  })

const announce = (namespace: string, started: { authorizationUrl: string; expiresAt: string }) => {
  say(`Open this URL in a browser to log in to "${namespace}" (good until ${started.expiresAt}):`)
  process.stdout.write(`${started.authorizationUrl}\n`)
}

const loggedIn = (values: { json: boolean }, source: Sources.SourceView) => {
  if (values.json) printJson({ source })
  else
    process.stdout.write(
      `logged in to ${source.namespace}: ${source.toolCount} ${source.toolCount === 1 ? "tool" : "tools"}` +
        `${source.syncError ? ` (its tools could not be synced: ${source.syncError})` : ""}\n`,
    )
  return 0
}

/** The local catalog: a loopback listener on this machine takes the browser's callback. */
const loginHere = async (
  client: CatalogClient,
  namespace: string,
  values: CommandInput<typeof sourcesLoginFlags>["values"],
) => {
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usageError(`--port takes a port number (got "${values.port}")`)
  const server = await listen(port)
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`
    const started = await client.beginLogin(namespace, redirectUri)
    announce(namespace, started)
    say(`Waiting for the browser to come back to ${redirectUri} …`)
    const callback = await nextCallback(server, Date.parse(started.expiresAt))
    if (!callback)
      throw new CatalogClientError(
        "login_expired",
        "nobody completed the login within 10 minutes; run the command again",
      )
    try {
      await client.completeLogin!(callback.query)
      page(callback.res, 200, "Logged in", `Source "${namespace}" is logged in. You can close this window.`)
    } catch (cause) {
      page(callback.res, 400, "The login did not complete", cause instanceof Error ? cause.message : String(cause))
      throw cause
    }
    return loggedIn(values, await client.getSource(namespace))
  } finally {
    // a browser may hold a connection open, or open one more (a favicon, a preconnect): none may keep the command alive
    server.unref()
    server.closeAllConnections()
    server.close()
  }
}

/** A server: it hands out the URL, its callback finishes the login; this waits until the source says so. */
const loginThere = async (client: CatalogClient, namespace: string, values: { json: boolean }) => {
  const before = JSON.stringify((await client.getSource(namespace)).auth ?? null)
  const started = await client.beginLogin(namespace)
  announce(namespace, started)
  say("Waiting for the login to complete on the server …")
  const until = Date.parse(started.expiresAt)
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const source = await client.getSource(namespace)
    if (source.auth?.status !== "connected" || JSON.stringify(source.auth) === before) continue
    // the grant is stored before the callback's sync of the tools ends: a sync joins that one (or makes one), so what
    // is printed is the source with the tools its login brought, not a count read halfway
    const synced = await client.syncSource(namespace).catch(() => client.getSource(namespace))
    return loggedIn(values, synced)
  }
  throw new CatalogClientError("login_expired", "nobody completed the login within 10 minutes; run the command again")
}

export const sourcesLoginCommand = async ({ values, args }: CommandInput<typeof sourcesLoginFlags>) =>
  withCatalog(values, async (client) => {
    if (values.port !== undefined && !client.completeLogin)
      usageError("--port is for a local login (the loopback listener); a server's login comes back to its own callback")
    return client.completeLogin ? loginHere(client, args[0]!, values) : loginThere(client, args[0]!, values)
  })
