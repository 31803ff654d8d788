/**
 * A person's login for a source: the authorization code grant with PKCE (S256) and the resource indicator
 * (RFC 8707). `beginLogin` discovers the authorization server, settles the client, and stores a single-use state
 * (its SHA-256 only) bound to the source and the key that began it, for 10 minutes; `completeLogin` takes that
 * state once, checks the authorization response (state, `iss` where the server sends it, RFC 9207), exchanges the
 * code and stores the grant with its tokens sealed.
 */
import * as oauth from "oauth4webapi"
import type { AuthorizationServer, TokenEndpointResponse } from "oauth4webapi"
import type { CatalogStore } from "../catalog/rows.js"
import type { SourceAuthRow } from "../catalog/oauth-rows.js"
import type { OAuthSource } from "../seams.js"
import { clientAuthentication, resolveClient } from "./client-identity.js"
import type { ClientIdentity } from "./client-identity.js"
import { requestOptions } from "./discovery.js"
import { serverFor } from "./declared-server.js"
import type { DiscoveredServer } from "./discovery.js"
import { OAuthFailure, oauthFailureOf, serverWords } from "./failure.js"
import { originOf } from "./http.js"
import type { OAuthFetch } from "./http.js"
import type { TokenVault } from "./token-vault.js"

/** how long a login's state lasts: the 10 minutes */
export const LOGIN_TTL_MS = 10 * 60_000

export interface LoginDeps {
  store: CatalogStore
  vault: TokenVault
  fetch: OAuthFetch
  now: () => number
}

export interface LoginSubject {
  sourceId: string
  namespace: string
  oauth: OAuthSource
}

export interface LoginStart {
  authorizationUrl: string
  expiresAt: number
}

/** what the state row keeps for the exchange, besides the sealed verifier: nothing secret */
export interface StoredRequest {
  namespace: string
  issuer: string
  server: AuthorizationServer
  resource: string | null
  scope: string
  clientId: string
  /** false: a declared server whose issuer is not known (./declared-server.ts); absent in a state of an older build */
  issuerKnown?: boolean
}

const sha256 = async (text: string) => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("")
}

/** The scopes to ask for: the operator's, else the resource's; with offline_access where the server lists it. */
export const scopesFor = (oauthSource: OAuthSource, discovered: DiscoveredServer): string[] => {
  const asked = oauthSource.settings.scopes ?? discovered.scopes
  const offline = discovered.server.scopes_supported?.includes("offline_access") === true
  return [...new Set([...asked, ...(offline ? ["offline_access"] : [])])]
}

/** The MCP authorization specification: a client must refuse a server that does not support PKCE with S256. */
const checkPkce = (server: AuthorizationServer) => {
  if (!server.code_challenge_methods_supported?.includes("S256"))
    throw new OAuthFailure({
      code: "discovery_failed",
      message: `the authorization server ${server.issuer} does not list PKCE with S256 (code_challenge_methods_supported), which this server requires`,
    })
  if (!server.authorization_endpoint || !server.token_endpoint)
    throw new OAuthFailure({
      code: "discovery_failed",
      message: `the authorization server ${server.issuer} names no authorization or token endpoint`,
    })
}

export const beginLogin = async (
  deps: LoginDeps,
  subject: LoginSubject,
  { redirectUri, keyId }: { redirectUri: string; keyId: string | null },
): Promise<LoginStart> => {
  const { store, vault, now } = deps
  const discovered = await serverFor(subject.oauth, deps.fetch)
  const { server, issuer, resource } = discovered
  checkPkce(server)
  const scopes = scopesFor(subject.oauth, discovered)
  const client = await resolveClient(deps, {
    sourceId: subject.sourceId,
    settings: subject.oauth.settings,
    issuer,
    server,
    redirectUri,
    scopes,
  })
  const state = oauth.generateRandomState()
  const verifier = oauth.generateRandomCodeVerifier()
  const url = new URL(server.authorization_endpoint!)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("client_id", client.clientId)
  url.searchParams.set("redirect_uri", redirectUri)
  if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "))
  url.searchParams.set("state", state)
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier))
  url.searchParams.set("code_challenge_method", "S256")
  if (resource !== null) url.searchParams.set("resource", resource)
  // OpenID Connect Core §11: a refresh token for offline_access is issued only after consent was asked
  if (scopes.includes("offline_access")) url.searchParams.set("prompt", "consent")
  const at = now()
  const id = await sha256(state)
  const request: StoredRequest = {
    namespace: subject.namespace,
    issuer,
    server,
    resource,
    scope: scopes.join(" "),
    clientId: client.clientId,
    ...(discovered.issuerKnown === false ? { issuerKnown: false } : {}),
  }
  await store.insertOAuthState({
    id,
    sourceId: subject.sourceId,
    keyId,
    redirectUri,
    request: request as unknown as Record<string, unknown>,
    codeVerifier: await vault.seal(subject.sourceId, `code_verifier:${id}`, verifier),
    createdAt: at,
    expiresAt: at + LOGIN_TTL_MS,
    usedAt: null,
  })
  return { authorizationUrl: url.href, expiresAt: at + LOGIN_TTL_MS }
}

const badCallback = (message: string) => new OAuthFailure({ code: "bad_callback", message })

/**
 * The server a callback is checked against. A declared server whose issuer is not known takes the callback's `iss`
 * (RFC 9207) as its issuer when it comes from the origin of the server's own endpoints; from anywhere else it is a
 * mix-up of servers and refused.
 */
const serverAnswering = (request: StoredRequest, callback: URLSearchParams): AuthorizationServer => {
  const iss = callback.get("iss")
  if (request.issuerKnown !== false || !iss) return request.server
  const origins = [request.server.token_endpoint, request.server.authorization_endpoint].map((url) =>
    url ? originOf(url) : null,
  )
  if (!origins.includes(originOf(iss)))
    throw badCallback(
      `the authorization server's answer names the issuer ${serverWords(iss)}, not the server this login went to ` +
        `(${originOf(request.server.token_endpoint!)}): a mix-up of servers (RFC 9207); begin a new login`,
    )
  return { ...request.server, issuer: iss }
}

/** the grant row a token response makes (tokens sealed) */
export const grantTokens = async (
  vault: TokenVault,
  sourceId: string,
  tokens: TokenEndpointResponse,
  at: number,
  fallback: { refreshToken?: string | null; scope?: string | null } = {},
) => ({
  accessToken: await vault.seal(sourceId, "access_token", tokens.access_token),
  refreshToken: await vault.sealOrNull(sourceId, "refresh_token", tokens.refresh_token ?? fallback.refreshToken),
  expiresAt: typeof tokens.expires_in === "number" ? at + tokens.expires_in * 1000 : null,
  scopes: tokens.scope ?? fallback.scope ?? null,
})

export interface CompletedLogin {
  sourceId: string
  namespace: string
  keyId: string | null
  scopes: string | null
  expiresAt: number | null
}

/**
 * Finishes the login the callback's `state` names. The client's secret comes from `clientOf` (the source's settings
 * or its registration, read now: it is not kept in the state). Fails with OAuthFailure `bad_callback` for a state
 * that is unknown, used or expired, or an error the authorization server sent back.
 */
export const completeLogin = async (
  deps: LoginDeps,
  callback: URLSearchParams,
  clientOf: (sourceId: string, request: StoredRequest & { redirectUri: string }) => Promise<ClientIdentity>,
): Promise<CompletedLogin> => {
  const { store, vault, now } = deps
  const state = callback.get("state")
  if (!state) throw badCallback("the callback carries no state: it did not come from a login this server began")
  const taken = await store.takeOAuthState(await sha256(state), now())
  if (!taken.ok)
    throw badCallback(
      taken.reason === "used"
        ? "this login was completed (or tried) already: a state is good for one callback only; begin a new login"
        : taken.reason === "expired"
          ? "this login took longer than 10 minutes and has expired; begin a new login"
          : "the callback's state is not one this server handed out; begin a new login",
    )
  const { row } = taken
  const request = row.request as unknown as StoredRequest
  const client = await clientOf(row.sourceId, { ...request, redirectUri: row.redirectUri })
  if (client.clientId !== request.clientId)
    throw badCallback("the source's client changed since this login began; begin a new login")
  const verifier = await vault.open(row.sourceId, `code_verifier:${row.id}`, row.codeVerifier)
  if (!verifier) throw badCallback("this login's verifier cannot be read with this server's key; begin a new login")
  const server = serverAnswering(request, callback)
  const what = `code exchange at ${new URL(server.token_endpoint!).origin}`
  let tokens: TokenEndpointResponse
  try {
    const params = oauth.validateAuthResponse(server, { client_id: client.clientId }, callback, state)
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      { client_id: client.clientId },
      clientAuthentication(client),
      params,
      row.redirectUri,
      verifier,
      {
        ...requestOptions(deps.fetch),
        ...(request.resource !== null ? { additionalParameters: { resource: request.resource } } : {}),
      },
    )
    tokens = await oauth.processAuthorizationCodeResponse(server, { client_id: client.clientId }, response)
  } catch (cause) {
    throw oauthFailureOf(cause, what) ?? cause
  }
  const at = now()
  const sealed = await grantTokens(vault, row.sourceId, tokens, at, { scope: request.scope })
  const grant: Omit<SourceAuthRow, "generation" | "refreshLeaseUntil" | "refreshLeaseOwner"> = {
    sourceId: row.sourceId,
    status: "connected",
    issuer: server.issuer,
    server: server as unknown as Record<string, unknown>,
    resource: request.resource,
    clientId: client.clientId,
    clientAuth: client.clientAuth,
    clientSecret: await vault.sealOrNull(row.sourceId, "client_secret", client.clientSecret),
    grant: "authorization_code",
    ...sealed,
    connectedBy: row.keyId,
    error: null,
    updatedAt: at,
  }
  await store.putSourceAuth(grant)
  return {
    sourceId: row.sourceId,
    namespace: request.namespace,
    keyId: row.keyId,
    scopes: sealed.scopes,
    expiresAt: sealed.expiresAt,
  }
}
