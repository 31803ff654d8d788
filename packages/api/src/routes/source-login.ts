/**
 * Logging a source in with OAuth (core's oauth/): an admin asks for the authorization URL, a person opens it in a
 * browser, and the authorization server sends the browser back to this server's callback, which finishes the login
 * and syncs the source. The callback needs no key (a browser's redirect carries none): the single-use state the
 * login stored, bound to its source and to the key that began it, is what it is checked by.
 */
import type { Context } from "hono"
import { Cause, Effect, Exit, Option } from "effect"
import { z } from "zod"
import { InvalidInput } from "@switchboard/core"
import { serverBase } from "../console-links.js"
import { runForRequest } from "../http-errors.js"
import { loginBody } from "../wire/sources.js"
import type { LoginBody } from "../wire/sources.js"
import type { AppEnv } from "../env.js"
import { routeGroup } from "./route-group.js"

export const OAUTH_CALLBACK_PATH = "/v1/oauth/callback"

const params = { namespace: "the source's namespace" }

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** A page for the person in the browser: short, no script, and never the code or the state. */
const page = (c: Context<AppEnv>, status: 200 | 400 | 403 | 404 | 500 | 502, title: string, text: string) =>
  c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    status,
    { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  )

/** the page's status for each of a login's errors */
const CALLBACK_STATUS: Record<string, 400 | 403 | 404 | 502> = {
  InvalidInput: 400,
  SourceRefused: 403,
  NotFound: 404,
  UpstreamFailed: 502,
}

/** what an authorization server's redirect carries (RFC 6749 §4.1.2, RFC 9207's `iss`); read as sent, never echoed */
const callbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  iss: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  error_uri: z.string().optional(),
})

const noOAuth = new InvalidInput({ message: "this server does not log sources in with OAuth" })

export const sourceLoginRoutes = routeGroup(({ oauth, plugins, store, sources }, { publicUrl }) => ({
  logins: oauth
    ? oauth.forSources({
        store,
        plugins: plugins ?? [],
        sync: (namespace) => Effect.runPromise(sources.sync(namespace)),
      })
    : undefined,
  callbackUrl: (c: Context<AppEnv>) => `${serverBase(c.req.raw, publicUrl)}${OAUTH_CALLBACK_PATH}`,
}))
  .route({
    method: "post",
    path: "/v1/sources/:namespace/login",
    scope: "admin",
    operationId: "loginSource",
    tag: "sources",
    summary: "Begin an OAuth login for a source: the URL a person opens to log in",
    description:
      "Discovers the source's authorization server (its 401's `WWW-Authenticate`, RFC 9728, RFC 8414 or OpenID discovery, the issuer " +
      "checked), registers a client where the server allows it (else the source's `auth.clientId`), and answers the authorization URL " +
      "(PKCE S256, the resource indicator, offline_access where offered). The login's state is good once, for 10 minutes, for this " +
      "source and this key; the server's own callback (`GET /v1/oauth/callback`) finishes it and syncs the source's tools. " +
      "`GET /v1/sources/:namespace` then shows `auth.status: connected`.",
    params,
    responses: { 200: { description: "the URL to open, and when it expires", json: loginBody } },
    errors: ["NotFound", "UpstreamFailed"],
    handler: (c, { logins, callbackUrl }) =>
      runForRequest(
        c,
        logins
          ? logins.begin(c.req.param("namespace"), { redirectUri: callbackUrl(c), keyId: c.get("caller").keyId })
          : Effect.fail(noOAuth),
        (started) =>
          c.json({
            authorizationUrl: started.authorizationUrl,
            expiresAt: new Date(started.expiresAt).toISOString(),
          } satisfies LoginBody),
      ),
  })
  .route({
    method: "get",
    path: OAUTH_CALLBACK_PATH,
    // a person's browser, sent back by the authorization server: no key; the login's state is checked instead
    scope: null,
    operationId: "oauthCallback",
    tag: "sources",
    summary: "Where an authorization server sends the browser back: finishes the login its state names (no key)",
    query: callbackQuery,
    responses: {
      200: { description: "a page saying the login is done, and whether the source's tools synced", html: true },
      400: {
        description:
          "a page saying what was wrong: a state unknown, used or expired, or the authorization server's error",
        html: true,
      },
      502: { description: "a page: the authorization server failed the code exchange", html: true },
    },
    handler: async (c, { logins }) => {
      if (!logins) return page(c, 404, "No OAuth here", "This server does not log sources in with OAuth.")
      const callback = new URLSearchParams(new URL(c.req.url).search)
      const exit = await Effect.runPromiseExit(logins.complete(callback))
      if (Exit.isFailure(exit)) {
        const found = Cause.findErrorOption(exit.cause)
        if (Option.isNone(found)) throw Cause.squash(exit.cause)
        const error = found.value
        return page(c, CALLBACK_STATUS[error._tag] ?? 500, "The login did not complete", error.message)
      }
      const done = exit.value
      const synced = done.syncError ? ` Its tools could not be synced yet: ${done.syncError}` : " Its tools are synced."
      return page(c, 200, "Logged in", `Source "${done.namespace}" is logged in. You can close this window.${synced}`)
    },
  })
