/**
 * The token requests of a grant (./credentials.ts decides when): a refresh, a client-credentials grant, and the
 * first grant of a client-credentials source; and the answers a plugin gets when there is no token to give.
 * Failures are values: a grant the server refused for good (`gone`), or one that could not be made (`failed`).
 */
import * as oauth from "oauth4webapi"
import type { AuthorizationServer } from "oauth4webapi"
import type { CatalogStore } from "../catalog/rows.js"
import type { SourceAuthRow } from "../catalog/oauth-rows.js"
import { SourceRefusalCodes } from "../seams.js"
import type { CredentialAnswer, CredentialSubject } from "../seams.js"
import { ToolErrorCodes } from "../result.js"
import { clientAuthentication, clientAuthFor } from "./client-identity.js"
import { discoverServer, requestOptions } from "./discovery.js"
import { isGrantGone, oauthFailureOf } from "./failure.js"
import type { OAuthFailure } from "./failure.js"
import type { OAuthFetch } from "./http.js"
import { grantTokens, scopesFor } from "./login.js"
import { authRequiredMessage, loginHint } from "./login-hint.js"
import type { TokenVault } from "./token-vault.js"

export interface GrantDeps {
  store: CatalogStore
  vault: TokenVault
  fetch: OAuthFetch
  now: () => number
}

export type TokenResult = { tokens: oauth.TokenEndpointResponse } | { gone: string } | { failed: OAuthFailure }

export const authRequired = (namespace: string): NoCredential => ({
  ok: false,
  code: ToolErrorCodes.authRequired,
  authRequired: "auth_required",
  message: authRequiredMessage(namespace),
})

export const authExpired = (namespace: string, why: string | null): NoCredential => ({
  ok: false,
  code: ToolErrorCodes.authExpired,
  authRequired: "auth_expired",
  message: `the OAuth login of source "${namespace}" has expired${why ? ` (${why})` : ""}: ${loginHint(namespace)}`,
})

/** a credential that could not be had: no login, or no answer from the authorization server */
export type NoCredential = Exclude<CredentialAnswer, { ok: true }>

export const unreachable = (failure: OAuthFailure): NoCredential => ({
  ok: false,
  code: failure.code === "private_address" ? SourceRefusalCodes.privateAddress : ToolErrorCodes.upstreamUnavailable,
  message: failure.message,
})

const clientOf = async (vault: TokenVault, row: SourceAuthRow) => ({
  clientId: row.clientId,
  clientAuth: row.clientAuth,
  clientSecret: await vault.open(row.sourceId, "client_secret", row.clientSecret),
})

/** the token request of a refresh or a client-credentials grant; a failure is a value */
export const tokenRequest = async (
  deps: GrantDeps,
  namespace: string,
  row: SourceAuthRow,
  refreshToken: string | null,
): Promise<TokenResult> => {
  const server = row.server as unknown as AuthorizationServer
  const client = await clientOf(deps.vault, row)
  const options = {
    ...requestOptions(deps.fetch),
    ...(row.resource ? { additionalParameters: { resource: row.resource } } : {}),
  }
  try {
    if (refreshToken !== null) {
      const response = await oauth.refreshTokenGrantRequest(
        server,
        { client_id: client.clientId },
        clientAuthentication(client),
        refreshToken,
        options,
      )
      return { tokens: await oauth.processRefreshTokenResponse(server, { client_id: client.clientId }, response) }
    }
    const parameters: Record<string, string> = row.scopes ? { scope: row.scopes } : {}
    if (row.resource) parameters.resource = row.resource
    const response = await oauth.clientCredentialsGrantRequest(
      server,
      { client_id: client.clientId },
      clientAuthentication(client),
      parameters,
      requestOptions(deps.fetch),
    )
    return { tokens: await oauth.processClientCredentialsResponse(server, { client_id: client.clientId }, response) }
  } catch (cause) {
    if (isGrantGone(cause)) return { gone: oauthFailureOf(cause, `refresh of "${namespace}"`)!.message }
    const failure = oauthFailureOf(cause, `token request for "${namespace}"`)
    if (failure) return { failed: failure }
    throw cause
  }
}

/**
 * Client credentials with no grant yet: discover the authorization server, ask for a token, and store the grant.
 * A source being added is not stored yet, so its grant cannot be either: the token is used all the same, and the
 * grant is stored by the first one asked for after the source is.
 */
export const clientCredentialsGrant = async (
  deps: GrantDeps,
  subject: CredentialSubject,
): Promise<{ ok: true; authorization: string; expiresAt: number | null } | NoCredential> => {
  const { store, vault, now } = deps
  const { settings } = subject.oauth
  let discovered: Awaited<ReturnType<typeof discoverServer>>
  try {
    discovered = await discoverServer(subject.oauth.resource, deps.fetch)
  } catch (cause) {
    const failure = oauthFailureOf(cause, "OAuth discovery")
    if (failure) return unreachable(failure)
    throw cause
  }
  const scopes = scopesFor(subject.oauth, discovered).filter((scope) => scope !== "offline_access")
  const at = now()
  const grant: SourceAuthRow = {
    sourceId: subject.id,
    status: "connected",
    issuer: discovered.issuer,
    server: discovered.server as unknown as Record<string, unknown>,
    resource: discovered.resource,
    clientId: settings.clientId!,
    clientAuth: clientAuthFor(discovered.server, true),
    clientSecret: await vault.sealOrNull(subject.id, "client_secret", settings.clientSecret),
    grant: "client_credentials",
    accessToken: null,
    refreshToken: null,
    expiresAt: null,
    scopes: scopes.join(" ") || null,
    generation: 0,
    refreshLeaseUntil: null,
    refreshLeaseOwner: null,
    connectedBy: null,
    error: null,
    updatedAt: at,
  }
  const result = await tokenRequest(deps, subject.namespace, grant, null)
  if ("gone" in result)
    return { ok: false, code: ToolErrorCodes.authRequired, authRequired: "auth_required", message: result.gone }
  if ("failed" in result) return unreachable(result.failed)
  const tokens = await grantTokens(vault, subject.id, result.tokens, at, { scope: grant.scopes })
  const { generation: _, refreshLeaseUntil: __, refreshLeaseOwner: ___, ...row } = { ...grant, ...tokens }
  // a source being added has no row yet for its grant to point at
  await store.putSourceAuth(row).catch(() => undefined)
  return { ok: true, authorization: `Bearer ${result.tokens.access_token}`, expiresAt: tokens.expiresAt }
}
