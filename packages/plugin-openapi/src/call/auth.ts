/**
 * The credentials a call sends: of the operation's security alternatives, the first whose every scheme has a
 * credential in the source's `auth` or is met by its OAuth login (one that needs none only when no other is met).
 * HTTP bearer and basic go in `Authorization`, as does an oauth2 scheme's token (the login's, or a token string
 * given for it); an API key in its header, query parameter or cookie.
 */
import { isRecord } from "@switchboard/core"
import type { OAuthSchemeBinding, SchemeBinding } from "../binding.js"
import { logsInWith } from "../oauth-login.js"

export interface Credentials {
  headers: [string, string][]
  query: string[]
  cookies: string[]
}

const base64 = (text: string) => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const usable = (scheme: SchemeBinding, config: { auth: Record<string, unknown> }) => {
  const credential = config.auth[scheme.name]
  if (scheme.type === "oauth2") return typeof credential === "string" || logsInWith(scheme, config)
  return (
    credential !== undefined &&
    (scheme.type === "apiKey" || (scheme.type === "http" && (scheme.scheme === "bearer" || scheme.scheme === "basic")))
  )
}

/** The alternative a call is made with: the first met one that needs credentials, else none. */
export const chosenAlternative = (
  security: readonly SchemeBinding[][],
  config: { auth: Record<string, unknown> },
): readonly SchemeBinding[] => {
  const met = security.filter((alt) => alt.every((scheme) => usable(scheme, config)))
  return met.find((alt) => alt.length > 0) ?? []
}

/** The oauth2 scheme of an alternative the source's login meets, if it has one. */
export const loginSchemeIn = (
  alternative: readonly SchemeBinding[],
  config: { auth: Record<string, unknown> },
): OAuthSchemeBinding | undefined =>
  alternative.find((scheme): scheme is OAuthSchemeBinding => logsInWith(scheme, config))

/** The alternative's credentials; `login`: the `Authorization` value core's OAuth gave for its oauth2 scheme. */
export const credentialsFor = (
  alternative: readonly SchemeBinding[],
  auth: Record<string, unknown>,
  login: string | null = null,
): Credentials => {
  const out: Credentials = { headers: [], query: [], cookies: [] }
  for (const scheme of alternative) {
    const credential = auth[scheme.name]
    if (scheme.type === "oauth2") {
      const header = typeof credential === "string" ? `Bearer ${credential}` : login
      if (header) out.headers.push(["authorization", header])
    } else if (scheme.type === "http" && scheme.scheme === "bearer")
      out.headers.push(["authorization", `Bearer ${credential}`])
    else if (scheme.type === "http") {
      const pair = isRecord(credential) ? `${credential.username}:${credential.password}` : String(credential)
      out.headers.push(["authorization", `Basic ${base64(pair)}`])
    } else if (scheme.type === "apiKey") {
      const value = String(credential)
      if (scheme.in === "header") out.headers.push([scheme.key, value])
      else if (scheme.in === "query") out.query.push(`${encodeURIComponent(scheme.key)}=${encodeURIComponent(value)}`)
      else out.cookies.push(`${scheme.key}=${encodeURIComponent(value)}`)
    }
  }
  return out
}
