/**
 * Who the server is to an authorization server: the operator's pre-registered client (`auth.clientId`, with its
 * sealed secret), else a client it registered itself (RFC 7591) for this source and redirect URI, kept in
 * `oauth_clients` and used again. An authorization server that offers no registration and has no client given is
 * a failure that says what to do: what "Unknown OAuth client" means elsewhere.
 */
import * as oauth from "oauth4webapi"
import type { AuthorizationServer } from "oauth4webapi"
import type { CatalogStore } from "../catalog/rows.js"
import type { ClientAuthMethod } from "../catalog/oauth-rows.js"
import { OAuthFailure, oauthFailureOf } from "./failure.js"
import { isLoopbackHost } from "./http.js"
import type { OAuthFetch } from "./http.js"
import { requestOptions } from "./discovery.js"
import type { OAuthSettings } from "./settings.js"
import type { TokenVault } from "./token-vault.js"

export interface ClientIdentity {
  clientId: string
  clientAuth: ClientAuthMethod
  clientSecret: string | null
}

/** RFC 8414 §2: without the list, a server takes client_secret_basic */
const methodsOf = (server: AuthorizationServer) =>
  server.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]

/** how a client with (or without) a secret authenticates at this server's token endpoint */
export const clientAuthFor = (server: AuthorizationServer, hasSecret: boolean): ClientAuthMethod => {
  if (!hasSecret) return "none"
  return methodsOf(server).includes("client_secret_basic") || !methodsOf(server).includes("client_secret_post")
    ? "client_secret_basic"
    : "client_secret_post"
}

/** oauth4webapi's client authentication for an identity */
export const clientAuthentication = ({ clientAuth, clientSecret }: ClientIdentity): oauth.ClientAuth =>
  clientAuth === "none" || !clientSecret
    ? oauth.None()
    : clientAuth === "client_secret_post"
      ? oauth.ClientSecretPost(clientSecret)
      : oauth.ClientSecretBasic(clientSecret)

export interface ResolveClientDeps {
  store: CatalogStore
  vault: TokenVault
  fetch: OAuthFetch
  now: () => number
}

export interface ClientRequest {
  sourceId: string
  settings: OAuthSettings
  issuer: string
  server: AuthorizationServer
  redirectUri: string
  scopes: string[]
}

const noClient = (issuer: string) =>
  new OAuthFailure({
    code: "no_client",
    message:
      `the authorization server ${issuer} offers no dynamic client registration (RFC 7591): register a client with it ` +
      'and give it in the source\'s auth: { "clientId": "…", "clientSecret": "…" } (PATCH the source, or add it again)',
  })

/** A registration's metadata: a public client with PKCE where the server takes one, else a confidential one. */
const registrationMetadata = (server: AuthorizationServer, { redirectUri, scopes }: ClientRequest) => {
  const publicClient = methodsOf(server).includes("none")
  const loopback = isLoopbackHost(new URL(redirectUri).hostname)
  return {
    client_name: "Switchboard",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: publicClient ? "none" : clientAuthFor(server, true),
    // OpenID Connect Registration: a loopback redirect over http is a native application's (RFC 8252 §7.3)
    ...(loopback ? { application_type: "native" } : {}),
    ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
  }
}

export const resolveClient = async (deps: ResolveClientDeps, request: ClientRequest): Promise<ClientIdentity> => {
  const { store, vault, fetch: fetchFn, now } = deps
  const { sourceId, settings, issuer, server, redirectUri } = request
  if (settings.clientId) {
    const secret = settings.clientSecret ?? null
    return { clientId: settings.clientId, clientSecret: secret, clientAuth: clientAuthFor(server, secret !== null) }
  }
  const field = `registered_client_secret:${issuer}\u0000${redirectUri}` as const
  const known = await store.getOAuthClient(sourceId, issuer, redirectUri)
  if (known)
    return {
      clientId: known.clientId,
      clientAuth: known.clientAuth,
      clientSecret: await vault.open(sourceId, field, known.clientSecret),
    }
  if (!server.registration_endpoint) throw noClient(issuer)
  let registered: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>
  try {
    const metadata = registrationMetadata(server, request)
    const response = await oauth.dynamicClientRegistrationRequest(server, metadata, requestOptions(fetchFn))
    registered = await oauth.processDynamicClientRegistrationResponse(response)
  } catch (cause) {
    throw oauthFailureOf(cause, `client registration at ${new URL(server.registration_endpoint).origin}`) ?? cause
  }
  const secret = typeof registered.client_secret === "string" ? registered.client_secret : null
  const method = registered.token_endpoint_auth_method
  const clientAuth: ClientAuthMethod =
    method === "none" || method === "client_secret_post" || method === "client_secret_basic"
      ? method
      : clientAuthFor(server, secret !== null)
  const stored = await store.putOAuthClient({
    sourceId,
    issuer,
    redirectUri,
    clientId: registered.client_id,
    clientAuth,
    clientSecret: await vault.sealOrNull(sourceId, field, secret),
    createdAt: now(),
  })
  // a second server that registered at the same moment keeps the first one stored, and uses it too
  return {
    clientId: stored.clientId,
    clientAuth: stored.clientAuth,
    clientSecret: await vault.open(sourceId, field, stored.clientSecret),
  }
}
