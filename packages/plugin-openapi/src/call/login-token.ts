/**
 * A call's OAuth token, from core's credentials (the SourceCredentials seam: the token refreshed before it expires),
 * and what a 401 to it makes of it: core refreshes once, and the call is sent again with the new token when there is
 * one; else the 401 stands as the service's answer. No login yet is `auth_required`, one gone for good
 * `auth_expired`, each naming the command that logs in.
 */
import { ToolErrorCodes } from "@switchboard/core"
import type { CredentialSubject, RawInvokeResult, SourceCredentials } from "@switchboard/core"
import * as OAuth from "@switchboard/core/oauth"
import type { OAuthSchemeBinding } from "../binding.js"

/** The source's login as a call sees it: core's credentials, and the source as they know it for a scheme. */
export interface CallLogin {
  credentials: SourceCredentials | undefined
  namespace: string
  subjectFor(scheme: OAuthSchemeBinding): CredentialSubject
}

type Failure = Extract<RawInvokeResult, { ok: false }>

const failed = (answer: { code: string; message: string }): { ok: false; failure: Failure } => ({
  ok: false,
  failure: { ok: false, code: answer.code, message: answer.message },
})

export type LoginToken =
  | { ok: false; failure: Failure }
  | {
      ok: true
      authorization: string
      /** what to send after the service answered 401 to it: a new token, or null to take the 401 as it is */
      rejected(
        challenge: string | null,
      ): Promise<{ ok: true; authorization: string | null } | { ok: false; failure: Failure }>
      /** the service refused the new token too: a login that does not fit it (scopes, resource) */
      refusedAgain(): Failure
    }

export const loginToken = async (login: CallLogin, scheme: OAuthSchemeBinding): Promise<LoginToken> => {
  const { credentials, namespace } = login
  if (!credentials)
    return failed({
      code: ToolErrorCodes.authRequired,
      message: `source "${namespace}" needs an OAuth login (its oauth2 scheme "${scheme.name}"), which this host does not make`,
    })
  const subject = login.subjectFor(scheme)
  const first = await credentials.authorization(subject)
  if (!first.ok) return failed(first)
  if (first.authorization === null)
    return failed({ code: ToolErrorCodes.authRequired, message: OAuth.authRequiredMessage(namespace) })
  const sent = first.authorization
  return {
    ok: true,
    authorization: sent,
    async rejected(challenge) {
      const next = await credentials.rejected(subject, sent, challenge)
      if (!next.ok) return failed(next)
      return { ok: true, authorization: next.authorization !== sent ? next.authorization : null }
    },
    refusedAgain: () => ({
      ok: false,
      code: ToolErrorCodes.authRequired,
      message:
        `source "${namespace}" refused a freshly refreshed token (it may want other scopes or another resource): ` +
        `run \`switchboard sources login ${namespace}\``,
    }),
  }
}
