/**
 * How an OpenAPI source logs in with OAuth: with the spec's oauth2 scheme (its authorization code or client
 * credentials flow) and the settings its `auth` gives that scheme, through core's OAuth, so its logins, tokens and
 * refreshes are an MCP source's. The scheme it logs in with is the one its OAuth settings name, else the spec's only
 * oauth2 scheme with an authorization code flow; one given a token string in `auth` does not log in (the token is
 * sent as it is). No zod here: the
 * view of a config (./config-view.ts) reads this in the CLI's catalog bundle.
 */
import { isRecord } from "@switchboard/core"
import type { CredentialSubject, OAuthEndpoints, OAuthSource, SourceHandle } from "@switchboard/core"
import type { OAuthSchemeBinding, SchemeBinding } from "./binding.js"

/** An oauth2 scheme's entry in `auth` (./config-schema.ts `openApiOAuthSettings`), as checked. */
export interface OpenApiOAuthSettings {
  clientId?: string
  clientSecret?: string
  scopes?: string[]
  grant?: "authorization_code" | "client_credentials"
  authorizationUrl?: string
  tokenUrl?: string
  resource?: string
}

const authOf = (config: unknown): Record<string, unknown> => {
  const auth = isRecord(config) ? config.auth : undefined
  return isRecord(auth) ? auth : {}
}

/** A credential that is OAuth settings: an object that is no basic credential. */
export const isOAuthEntry = (value: unknown): boolean =>
  isRecord(value) && !("username" in value) && !("password" in value)

/** The `auth` entry holding OAuth settings, and the scheme it is for; null without one. */
export const oauthEntryOf = (config: unknown): { scheme: string; settings: OpenApiOAuthSettings } | null => {
  for (const [scheme, value] of Object.entries(authOf(config)))
    if (isOAuthEntry(value)) return { scheme, settings: value as OpenApiOAuthSettings }
  return null
}

/** What a source's config says of its login, without its spec: whether it has settings, which grant, what resource. */
export const oauthOf = (config: unknown): OAuthSource => {
  const settings = oauthEntryOf(config)?.settings ?? {}
  const { clientId, clientSecret, scopes, grant } = settings
  const core = Object.fromEntries(
    Object.entries({ clientId, clientSecret, scopes, grant }).filter(([, value]) => value !== undefined),
  )
  return { resource: settings.resource ?? null, settings: core }
}

/**
 * Whether a call's scheme is met by the source's login: the oauth2 scheme its OAuth settings name, else (none named)
 * any with an authorization code flow and no token in `auth` (a client-credentials login needs its client in them).
 */
export const logsInWith = (scheme: SchemeBinding, config: unknown): scheme is OAuthSchemeBinding => {
  if (scheme.type !== "oauth2" || typeof authOf(config)[scheme.name] === "string") return false
  const named = oauthEntryOf(config)?.scheme
  return named === undefined ? scheme.flows.authorizationCode !== undefined : named === scheme.name
}

/** The oauth2 scheme the source logs in with, of the spec's schemes; null for none; a message when it cannot tell. */
export const loginSchemeOf = (
  schemes: Iterable<SchemeBinding>,
  config: unknown,
): { scheme: OAuthSchemeBinding | null } | { problem: string } => {
  const candidates = [...schemes].filter((scheme) => logsInWith(scheme, config))
  if (candidates.length > 1)
    return {
      problem:
        `the spec declares several oauth2 schemes (${candidates.map((s) => s.name).join(", ")}): name the one this ` +
        `source logs in with in its auth, e.g. {"${candidates[0]!.name}": {}}`,
    }
  return { scheme: candidates[0] ?? null }
}

/**
 * Where a login with `scheme` goes: the flow its settings' grant names (authorization code unless they say client
 * credentials), the operator's URLs over the spec's. Throws, with what to do, when the spec declares no such flow.
 */
export const endpointsOf = (scheme: OAuthSchemeBinding, settings: OpenApiOAuthSettings): OAuthEndpoints => {
  const machine = settings.grant === "client_credentials"
  const flow = machine ? scheme.flows.clientCredentials : scheme.flows.authorizationCode
  const authorizationUrl = settings.authorizationUrl ?? flow?.authorizationUrl
  const tokenUrl = settings.tokenUrl ?? flow?.tokenUrl
  if (tokenUrl && (machine || authorizationUrl))
    return { ...(machine ? {} : { authorizationUrl }), tokenUrl, scopes: scheme.scopes, offered: flow?.offered ?? [] }
  const where = `auth.${scheme.name}`
  throw new Error(
    machine
      ? `the spec's oauth2 scheme "${scheme.name}" declares no clientCredentials flow: give ${where}.tokenUrl, or log in ` +
          `with its authorization code flow (no ${where}.grant)`
      : `the spec's oauth2 scheme "${scheme.name}" declares no authorizationCode flow: set ${where}.grant to ` +
          `"client_credentials" (with clientId and clientSecret) for its client credentials flow, or give ` +
          `${where}.authorizationUrl and ${where}.tokenUrl`,
  )
}

/** The source as core's credentials know it, logging in with `scheme`. */
export const loginSubject = (source: SourceHandle, scheme: OAuthSchemeBinding): CredentialSubject => {
  const settings = oauthEntryOf(source.config)?.settings ?? {}
  return {
    id: source.loginId ?? source.id,
    namespace: source.namespace,
    oauth: { ...oauthOf(source.config), endpoints: async () => endpointsOf(scheme, settings) },
  }
}
