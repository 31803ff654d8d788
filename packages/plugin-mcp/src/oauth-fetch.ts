/**
 * OAuth for an http source: core keeps the credentials (SourceCredentials), this puts them on the wire. Every
 * request of a source that may log in (an http source without a fixed `authorization` header: `oauthOf`) asks core
 * for its `Authorization` first (none while it has no login); a 401 is told to core (which refreshes once, or says that
 * a login is needed) and the request is sent once more with the header core gives, if it differs, else the 401 stands.
 * When core says a login is needed, the request
 * fails with `AuthNeeded` (its code `auth_required` or `auth_expired`, its message naming the command that logs in),
 * which the pool and the plugin find in a failure's causes, as they find a refusal.
 */
import { Data } from "effect"
import type { AuthFailureCode, CredentialSubject, SourceCredentials } from "@switchboard/core"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"

export class AuthNeeded extends Data.TaggedError("AuthNeeded")<{
  code: string
  message: string
  authRequired?: AuthFailureCode
}> {}

/** The AuthNeeded in an error or its causes: the SDK wraps what a fetch throws. */
export const findAuthNeeded = (cause: unknown): AuthNeeded | null => {
  let current = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if ((current as { _tag?: unknown })._tag === "AuthNeeded") return current as AuthNeeded
    current = (current as { cause?: unknown }).cause
  }
  return null
}

const withAuthorization = (init: RequestInit | undefined, authorization: string | null): RequestInit => {
  const headers = new Headers(init?.headers)
  if (authorization) headers.set("authorization", authorization)
  return { ...init, headers }
}

/** `fetchLike` with the source's credentials on every request, and one more try after a 401 with new ones. */
export const authorizedFetch = (
  fetchLike: FetchLike,
  credentials: SourceCredentials,
  subject: CredentialSubject,
): FetchLike => {
  const fail = (answer: { code: string; message: string; authRequired?: AuthFailureCode }) =>
    new AuthNeeded({ code: answer.code, message: answer.message, authRequired: answer.authRequired })
  return async (url, init) => {
    const first = await credentials.authorization(subject)
    if (!first.ok) throw fail(first)
    const response = await fetchLike(url, withAuthorization(init, first.authorization))
    if (response.status !== 401) return response
    const challenge = response.headers.get("www-authenticate")
    const next = await credentials.rejected(subject, first.authorization, challenge)
    if (!next.ok) {
      await response.body?.cancel().catch(() => undefined)
      throw fail(next)
    }
    // nothing new to send (a source that does not log in with OAuth): its 401 is its answer
    if (next.authorization === first.authorization) return response
    await response.body?.cancel().catch(() => undefined)
    const again = await fetchLike(url, withAuthorization(init, next.authorization))
    if (again.status !== 401) return again
    await again.body?.cancel().catch(() => undefined)
    throw fail({
      code: "auth_required",
      authRequired: "auth_required",
      message:
        `source "${subject.namespace}" refused a freshly refreshed token (it may want other scopes or another resource): ` +
        `run \`switchboard sources login ${subject.namespace}\``,
    })
  }
}
