/**
 * `PATCH /v1/sources/:namespace` of an openapi source: `auth` and `headers`, each replaced whole. It moves the
 * source's OAuth login (core then drops its tokens) when its OAuth settings name another scheme, client, grant,
 * endpoint or resource, or are gone; a client-credentials login moves with any change of its settings (a new token
 * is asked for at once). A new secret for the same client keeps the login: core uses it from the next refresh on.
 */
import { parseRequest } from "@switchboard/core"
import { openApiSourcePatch } from "./config-schema.js"
import { oauthEntryOf } from "./oauth-login.js"
import type { OpenApiOAuthSettings } from "./oauth-login.js"

const WHERE_IT_LOGS_IN: readonly (keyof OpenApiOAuthSettings)[] = [
  "clientId",
  "grant",
  "authorizationUrl",
  "tokenUrl",
  "resource",
]

const loginMoved = (before: unknown, after: unknown) => {
  const [was, is] = [oauthEntryOf(before), oauthEntryOf(after)]
  if (!was && !is) return false
  if (!was || !is || was.scheme !== is.scheme) return true
  if (WHERE_IT_LOGS_IN.some((key) => was.settings[key] !== is.settings[key])) return true
  return is.settings.grant === "client_credentials" && JSON.stringify(was.settings) !== JSON.stringify(is.settings)
}

export const mergeConfig = (
  current: unknown,
  patch: unknown,
): { ok: true; config: unknown; loginMoved: boolean } | { ok: false; message: string } => {
  const checked = parseRequest(openApiSourcePatch, patch)
  if (!checked.ok) return { ok: false, message: checked.error.message }
  const config = { ...(current as object), ...checked.value }
  return { ok: true, config, loginMoved: loginMoved(current, config) }
}
