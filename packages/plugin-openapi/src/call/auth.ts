/**
 * The credentials a call sends: of the operation's security alternatives, the first whose every scheme has a
 * credential in the source's `auth` (one that needs none only when no other is met). HTTP bearer and basic go in
 * `Authorization`; an API key in its header, query parameter or cookie.
 */
import { isRecord } from "@switchboard/core"
import type { SchemeBinding } from "../binding.js"

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

const usable = (scheme: SchemeBinding, credential: unknown) =>
  credential !== undefined &&
  (scheme.type === "apiKey" || (scheme.type === "http" && (scheme.scheme === "bearer" || scheme.scheme === "basic")))

export const credentialsFor = (security: readonly SchemeBinding[][], auth: Record<string, unknown>): Credentials => {
  const out: Credentials = { headers: [], query: [], cookies: [] }
  const met = security.filter((alt) => alt.every((scheme) => usable(scheme, auth[scheme.name])))
  const chosen = met.find((alt) => alt.length > 0) ?? []
  for (const scheme of chosen) {
    const credential = auth[scheme.name]
    if (scheme.type === "http" && scheme.scheme === "bearer")
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
