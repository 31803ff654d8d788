/**
 * The authorization server of a source that declares its endpoints itself (`OAuthSource.endpoints`: an OpenAPI spec's
 * oauth2 flow, or the operator's override of it) instead of one found from its resource by discovery.
 *
 * Its metadata is looked for where RFC 8414 (then OpenID discovery) puts it for an issuer at the token URL's origin,
 * and used when it names the same token endpoint (and authorization endpoint, where one is declared): its issuer is
 * then checked as a discovered server's, and registration, PKCE and offline_access follow what it lists. A server
 * without such metadata is taken as declared: its issuer is not known (`issuerKnown: false`: the callback's `iss`,
 * RFC 9207, is then accepted only from the origin of its endpoints), PKCE S256 is sent all the same (RFC 6749 §3.1:
 * a server ignores a parameter it does not know), and no client can be registered (the operator gives `auth.clientId`).
 */
import type { AuthorizationServer } from "oauth4webapi"
import type { OAuthEndpoints, OAuthSource } from "../seams.js"
import { discoverServer, serverMetadata } from "./discovery.js"
import type { DiscoveredServer } from "./discovery.js"
import { findRefusal } from "../egress/source-refusal.js"
import { OAuthFailure, isOAuthFailure, oauthFailureOf } from "./failure.js"
import { isLoopbackHost } from "./http.js"
import type { OAuthFetch } from "./http.js"

/** A declared endpoint as a URL: https, or plain http to this machine's loopback, as every OAuth request goes. */
const endpointUrl = (text: string | undefined, what: string): URL | undefined => {
  if (text === undefined) return undefined
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new OAuthFailure({ code: "discovery_failed", message: `the source's ${what} is not a URL` })
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new OAuthFailure({
      code: "insecure_url",
      message: `the source's ${what} (${url.origin}) is neither https nor plain http to this machine's loopback`,
    })
  return url
}

/** The metadata at the token URL's origin, when it is about these endpoints; null when there is none or it is not. */
const publishedMetadata = async (
  token: URL,
  authorization: URL | undefined,
  fetchFn: OAuthFetch,
): Promise<AuthorizationServer | null> => {
  let found: AuthorizationServer
  try {
    found = await serverMetadata(new URL(token.origin), fetchFn)
  } catch (cause) {
    const failure = oauthFailureOf(cause, "OAuth discovery")
    // none, or not this server's: the endpoints stand as declared
    if (failure?.code === "discovery_failed" || failure?.code === "issuer_mismatch") return null
    throw failure ?? cause
  }
  const same = (named: unknown, declared: URL | undefined) => declared === undefined || named === declared.href
  return same(found.token_endpoint, token) && same(found.authorization_endpoint, authorization) ? found : null
}

export const declaredServer = async (
  endpoints: OAuthEndpoints,
  resource: string | null,
  fetchFn: OAuthFetch,
): Promise<DiscoveredServer> => {
  const token = endpointUrl(endpoints.tokenUrl, "token URL")!
  const authorization = endpointUrl(endpoints.authorizationUrl, "authorization URL")
  const published = await publishedMetadata(token, authorization, fetchFn)
  if (published) return { resource, issuer: published.issuer, server: published, scopes: endpoints.scopes }
  const server: AuthorizationServer = {
    issuer: token.origin,
    token_endpoint: token.href,
    ...(authorization ? { authorization_endpoint: authorization.href } : {}),
    code_challenge_methods_supported: ["S256"],
    ...(endpoints.offered.length > 0 ? { scopes_supported: endpoints.offered } : {}),
  }
  return { resource, issuer: server.issuer, server, scopes: endpoints.scopes, issuerKnown: false }
}

/** Why a source's endpoints could not be read (OAuthSource.endpoints' rejection), as OAuth's failure. */
const endpointsFailure = (cause: unknown): OAuthFailure => {
  if (isOAuthFailure(cause)) return cause
  const refusal = findRefusal(cause)
  if (refusal) return new OAuthFailure({ code: "private_address", message: refusal.message })
  const message = cause instanceof Error ? cause.message : String(cause)
  const upstream = typeof cause === "object" && cause !== null && (cause as { upstream?: unknown }).upstream === true
  return new OAuthFailure({ code: upstream ? "unreachable" : "not_declared", message })
}

/** A source's authorization server: the one it declares, else the one its resource's discovery finds. */
export const serverFor = async (source: OAuthSource, fetchFn: OAuthFetch): Promise<DiscoveredServer> => {
  if (source.endpoints) {
    let endpoints: OAuthEndpoints
    try {
      endpoints = await source.endpoints()
    } catch (cause) {
      throw endpointsFailure(cause)
    }
    return declaredServer(endpoints, source.resource, fetchFn)
  }
  if (source.resource === null)
    throw new OAuthFailure({ code: "not_declared", message: "the source names neither a resource nor its endpoints" })
  return discoverServer(source.resource, fetchFn)
}
