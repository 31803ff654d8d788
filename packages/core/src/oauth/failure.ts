/**
 * What can go wrong with OAuth, as values: each failure has a code and a message for people that names the server
 * by its origin and never carries a code, a token or a secret. `oauthFailureOf` turns what oauth4webapi and the
 * egress throw into one; anything else is our defect and is thrown on.
 */
import {
  AuthorizationResponseError,
  OperationProcessingError,
  ResponseBodyError,
  WWWAuthenticateChallengeError,
} from "oauth4webapi"
import { Data } from "effect"
import { isOAuthHttpError } from "./http.js"

export type OAuthFailureCode =
  /** the egress guard refused an address a metadata document named */
  | "private_address"
  /** a URL that is neither https nor loopback http */
  | "insecure_url"
  /** a server could not be reached, or answered past a bound */
  | "unreachable"
  /** a metadata document missing, malformed, or naming another issuer or resource than asked */
  | "discovery_failed"
  /** the authorization server's metadata names another issuer than the one it was found for (RFC 8414 §3.3) */
  | "issuer_mismatch"
  /** no client: no registration endpoint and no `auth.clientId` */
  | "no_client"
  /** the source declares no authorization server of its own where it should (an OpenAPI spec without an oauth2 scheme) */
  | "not_declared"
  /** the authorization server refused a request (registration, code exchange, refresh): its `error` is in the message */
  | "refused"
  /** the callback was wrong: unknown, used or expired state, or an error from the authorization server */
  | "bad_callback"

export class OAuthFailure extends Data.TaggedError("OAuthFailure")<{ code: OAuthFailureCode; message: string }> {}

export const isOAuthFailure = (value: unknown): value is OAuthFailure =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "OAuthFailure"

/** an authorization server's own words, cut and stripped of control characters: they reach people, not scripts */
export const serverWords = (text: unknown, max = 200): string => {
  const clean = String(text ?? "").replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
  return clean.length > max ? `${clean.slice(0, max)}… (cut)` : clean
}

/** An OAuth error answer (RFC 6749 §5.2) in words: `invalid_grant (the grant was revoked)`. */
const oauthError = (error: string, description: unknown) =>
  description ? `${serverWords(error, 60)} (${serverWords(description)})` : serverWords(error, 60)

/**
 * The failure `cause` is, for the step `what` ("token request to https://as.example"), or null when it is none of
 * OAuth's expected failures (a defect: the caller logs it with a correlation id).
 */
export const oauthFailureOf = (cause: unknown, what: string): OAuthFailure | null => {
  if (isOAuthFailure(cause)) return cause
  if (isOAuthHttpError(cause)) {
    const code = cause.code === "too_large" ? "unreachable" : cause.code
    return new OAuthFailure({ code, message: `${what}: ${cause.message}` })
  }
  if (cause instanceof ResponseBodyError)
    return new OAuthFailure({
      code: "refused",
      message: `${what}: the server answered ${cause.status} ${oauthError(cause.error, cause.error_description)}`,
    })
  if (cause instanceof AuthorizationResponseError)
    return new OAuthFailure({
      code: "bad_callback",
      message: `${what}: the authorization server answered ${oauthError(cause.error, cause.error_description)}`,
    })
  if (cause instanceof WWWAuthenticateChallengeError)
    return new OAuthFailure({
      code: "refused",
      message: `${what}: the server answered ${cause.status} with a challenge`,
    })
  if (cause instanceof OperationProcessingError)
    return new OAuthFailure({
      code: "discovery_failed",
      message: `${what}: ${serverWords(cause.message)}`,
    })
  return null
}

/** A refresh or a grant the authorization server refused for good (RFC 6749 §5.2): the login is gone. */
export const isGrantGone = (cause: unknown): boolean =>
  cause instanceof ResponseBodyError &&
  (cause.error === "invalid_grant" || cause.error === "invalid_client" || cause.error === "unauthorized_client")
