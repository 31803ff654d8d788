/**
 * From a protected resource's URL to its authorization server, as the MCP authorization specification lays it out:
 * 1. ask the resource without a token: its 401's `WWW-Authenticate` names its Protected Resource Metadata
 *    (`resource_metadata`, RFC 9728 §5.1) and may name a scope;
 * 2. read that metadata there, or at the well-known path (path inserted, then the root), and check that it is about
 *    this resource (RFC 9728 §3.3);
 * 3. read its first authorization server's metadata: RFC 8414 (path inserted), then OpenID Connect Discovery, and
 *    check that it names the issuer it was found for (RFC 8414 §3.3; a mismatch is `issuer_mismatch`).
 * Every request goes through OAuth's fetch (./http.ts): the egress guard, https, no redirects, bounded answers.
 */
import * as oauth from "oauth4webapi"
import type { AuthorizationServer, ResourceServer } from "oauth4webapi"
import { OAuthFailure, oauthFailureOf, serverWords } from "./failure.js"
import type { OAuthFetch } from "./http.js"
import { parseBearerChallenge } from "./www-authenticate.js"

export interface DiscoveredServer {
  /** the resource indicator to send (RFC 8707): the metadata's `resource`, as written; null: none is sent */
  resource: string | null
  issuer: string
  server: AuthorizationServer
  /** what the 401 asked for, else what the resource's metadata lists */
  scopes: string[]
  /**
   * false: a server the source declared and that publishes no metadata, whose issuer is not known
   * (./declared-server.ts); its callback's `iss` is checked against its endpoints' origin instead
   */
  issuerKnown?: boolean
}

/** oauth4webapi's options for a request through OAuth's fetch (which does the https check itself) */
export const requestOptions = (fetchFn: OAuthFetch) => ({
  [oauth.customFetch]: (url: string, init: RequestInit) => fetchFn(url, init),
  [oauth.allowInsecureRequests]: true,
})

/** A probe without a token: what the resource's 401 says, when it answers 401. */
const challengeOf = async (resource: URL, fetchFn: OAuthFetch) => {
  const response = await fetchFn(resource.href, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
  })
  await response.body?.cancel().catch(() => undefined)
  return response.status === 401 ? parseBearerChallenge(response.headers.get("www-authenticate")) : null
}

const resourceMetadata = async (
  resource: URL,
  metadataUrl: string | undefined,
  fetchFn: OAuthFetch,
): Promise<ResourceServer> => {
  const options = requestOptions(fetchFn)
  const attempt = async (response: Response) => {
    if (response.status === 404) return null
    return oauth.processResourceDiscoveryResponse(resource, response)
  }
  if (metadataUrl) {
    let url: URL
    try {
      url = new URL(metadataUrl)
    } catch {
      throw new OAuthFailure({
        code: "discovery_failed",
        message: "the resource's 401 named a resource_metadata that is not a URL",
      })
    }
    const found = await attempt(await fetchFn(url.href, { method: "GET", headers: { accept: "application/json" } }))
    if (found) return found
  }
  const inserted = await attempt(await oauth.resourceDiscoveryRequest(resource, options))
  if (inserted) return inserted
  if (resource.pathname !== "/") {
    const root = await attempt(await oauth.resourceDiscoveryRequest(new URL("/", resource), options))
    if (root) return root
  }
  throw new OAuthFailure({
    code: "discovery_failed",
    message:
      `${resource.origin} publishes no OAuth Protected Resource Metadata (RFC 9728): neither its 401 nor the ` +
      "well-known paths name one, so the server cannot tell which authorization server to log in with",
  })
}

/** The authorization server metadata of `issuer` (RFC 8414, then OpenID discovery), its issuer checked. */
export const serverMetadata = async (issuer: URL, fetchFn: OAuthFetch): Promise<AuthorizationServer> => {
  const options = requestOptions(fetchFn)
  for (const algorithm of ["oauth2", "oidc"] as const) {
    const response = await oauth.discoveryRequest(issuer, { ...options, algorithm })
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined)
      continue
    }
    try {
      return await oauth.processDiscoveryResponse(issuer, response)
    } catch (cause) {
      if (cause instanceof oauth.OperationProcessingError && cause.code === oauth.JSON_ATTRIBUTE_COMPARISON)
        throw new OAuthFailure({
          code: "issuer_mismatch",
          message:
            `the authorization server metadata found for ${serverWords(issuer.href)} names another issuer ` +
            `(${serverWords((cause.cause as { body?: { issuer?: unknown } })?.body?.issuer)}); RFC 8414 §3.3 forbids ` +
            "using it: a server may be impersonating another",
        })
      throw cause
    }
  }
  throw new OAuthFailure({
    code: "discovery_failed",
    message: `${issuer.origin} publishes neither OAuth Authorization Server Metadata (RFC 8414) nor an OpenID configuration`,
  })
}

/** The authorization server of `resource`, checked at every step; fails with OAuthFailure. */
export const discoverServer = async (resourceUrl: string, fetchFn: OAuthFetch): Promise<DiscoveredServer> => {
  try {
    const resource = new URL(resourceUrl)
    resource.hash = ""
    const challenge = await challengeOf(resource, fetchFn)
    const metadata = await resourceMetadata(resource, challenge?.resourceMetadata, fetchFn)
    const issuerText = metadata.authorization_servers?.[0]
    if (!issuerText)
      throw new OAuthFailure({
        code: "discovery_failed",
        message: `the Protected Resource Metadata of ${resource.origin} names no authorization server`,
      })
    let issuer: URL
    try {
      issuer = new URL(issuerText)
    } catch {
      throw new OAuthFailure({
        code: "discovery_failed",
        message: "the resource's metadata names an authorization server that is not a URL",
      })
    }
    const server = await serverMetadata(issuer, fetchFn)
    const scopes = challenge?.scope?.split(" ").filter(Boolean) ?? metadata.scopes_supported ?? []
    return { resource: metadata.resource, issuer: server.issuer, server, scopes }
  } catch (cause) {
    const failure = oauthFailureOf(cause, "OAuth discovery")
    if (failure) throw failure
    throw cause
  }
}
