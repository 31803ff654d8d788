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
import { requestOptions } from "./discovery.js"
import { serverFor } from "./declared-server.js"
import { isGrantGone, oauthFailureOf } from "./failure.js"
import type { OAuthFailure } from "./failure.js"
import type { OAuthFetch } from "./http.js"
import { grantTokens, scopesFor } from "./login.js"
import { authRequiredMessage, loginHint } from "./login-hint.js"
import type { TokenVault } from "./token-vault.js"
import type { OAuthSettings } from "./settings.js"

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

/**
 * The grant's client: its secret as the source's settings give it now when they name the same client (a secret
 * rotated by a PATCH is used at once), else the one sealed with the grant (a registered client's).
 */
const clientOf = async (vault: TokenVault, row: SourceAuthRow, settings: OAuthSettings | undefined) => ({
  clientId: row.clientId,
  clientAuth: row.clientAuth,
  clientSecret:
    settings?.clientId === row.clientId && settings.clientSecret
      ? settings.clientSecret
      : await vault.open(row.sourceId, "client_secret", row.clientSecret),
})

/** the token request of a refresh or a client-credentials grant; a failure is a value */
export const tokenRequest = async (
  deps: GrantDeps,
  subject: Pick<CredentialSubject, "namespace" | "oauth">,
  row: SourceAuthRow,
  refreshToken: string | null,
): Promise<TokenResult> => {
  const { namespace } = subject
  const server = row.server as unknown as AuthorizationServer
  const client = await clientOf(deps.vault, row, subject.oauth.settings)
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
 * A client-credentials grant asked for and not stored yet: its tokens in memory, sealed only when stored, since a
 * sealed value is bound to the source it is stored for (./credentials.ts keeps it until its source is stored).
 */
export interface GrantDraft {
  row: Omit<SourceAuthRow, SecretOrToken | "sourceId" | "generation" | "refreshLeaseUntil" | "refreshLeaseOwner">
  tokens: oauth.TokenEndpointResponse
  clientSecret: string | null
  scopes: string | null
  at: number
}

type SecretOrToken = "accessToken" | "refreshToken" | "expiresAt" | "scopes" | "clientSecret"

/** A draft sealed and stored as `sourceId`'s grant. */
export const storeDraft = async (deps: GrantDeps, sourceId: string, draft: GrantDraft) => {
  const { vault } = deps
  const tokens = await grantTokens(vault, sourceId, draft.tokens, draft.at, { scope: draft.scopes })
  await deps.store.putSourceAuth({
    ...draft.row,
    sourceId,
    clientSecret: await vault.sealOrNull(sourceId, "client_secret", draft.clientSecret),
    ...tokens,
  })
  return tokens
}

/** Client credentials with no grant yet: find the authorization server, and ask it for a token. */
export const clientCredentialsGrant = async (
  deps: GrantDeps,
  subject: CredentialSubject,
): Promise<{ ok: true; authorization: string; draft: GrantDraft } | NoCredential> => {
  const { settings } = subject.oauth
  let discovered: Awaited<ReturnType<typeof serverFor>>
  try {
    discovered = await serverFor(subject.oauth, deps.fetch)
  } catch (cause) {
    const failure = oauthFailureOf(cause, "OAuth discovery")
    if (failure) return unreachable(failure)
    throw cause
  }
  const scopes =
    scopesFor(subject.oauth, discovered)
      .filter((scope) => scope !== "offline_access")
      .join(" ") || null
  const at = deps.now()
  const row: GrantDraft["row"] = {
    status: "connected",
    issuer: discovered.issuer,
    server: discovered.server as unknown as Record<string, unknown>,
    resource: discovered.resource,
    clientId: settings.clientId!,
    clientAuth: clientAuthFor(discovered.server, true),
    grant: "client_credentials",
    connectedBy: null,
    error: null,
    updatedAt: at,
  }
  const asked: SourceAuthRow = {
    ...row,
    sourceId: subject.id,
    clientSecret: null,
    accessToken: null,
    refreshToken: null,
    expiresAt: null,
    scopes,
    generation: 0,
    refreshLeaseUntil: null,
    refreshLeaseOwner: null,
  }
  const result = await tokenRequest(deps, subject, asked, null)
  if ("gone" in result)
    return { ok: false, code: ToolErrorCodes.authRequired, authRequired: "auth_required", message: result.gone }
  if ("failed" in result) return unreachable(result.failed)
  return {
    ok: true,
    authorization: `Bearer ${result.tokens.access_token}`,
    draft: { row, tokens: result.tokens, clientSecret: settings.clientSecret ?? null, scopes, at },
  }
}
