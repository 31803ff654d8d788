/** The MCP source config as the API receives it, checked with ./config-schema.ts; its secrets are ./config-secrets.ts. */
import { parseRequest } from "@switchboard/core"
import type { z } from "zod"
import { mcpSourceConfig, mcpSourcePatch } from "./config-schema.js"
import { oauthOf } from "./oauth-source.js"

/** A config as checkConfig leaves it: defaults filled in, the URL in its normal form. */
export type McpSourceConfig = z.output<typeof mcpSourceConfig>
export type McpTransportConfig = McpSourceConfig["transport"]

export type ConfigCheck =
  | { ok: true; config: McpSourceConfig }
  | { ok: false; reason: "invalid" | "forbidden"; message: string }

/** The shape of a config only: whether this server may start or reach the source is decided at connect (connection.ts). */
export const checkConfig = (config: unknown): ConfigCheck => {
  const checked = parseRequest(mcpSourceConfig, config)
  return checked.ok
    ? { ok: true, config: checked.value }
    : { ok: false, reason: "invalid", message: checked.error.message }
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * The stored secrets a PATCH would hand to somewhere else, which it drops unless it sends them again: an http
 * source's headers when its URL moves to another origin (another server would receive them), a stdio source's
 * env when its arguments change (another program would run with it). An admin cannot read a secret, so a PATCH
 * must not be a way to send one where they choose.
 */
const movedSecrets = (
  current: McpTransportConfig,
  given: Partial<Record<string, unknown>>,
): { field: "headers" | "env"; names: string[] } | null => {
  if (current.type === "http" && typeof given.url === "string" && given.headers === undefined) {
    const moved = originOf(given.url) !== originOf(current.url)
    return moved ? { field: "headers", names: Object.keys(current.headers) } : null
  }
  if (current.type === "stdio" && Array.isArray(given.args) && given.env === undefined) {
    const changed = !sameList(given.args as string[], current.args)
    return changed ? { field: "env", names: Object.keys(current.env) } : null
  }
  return null
}

/** The grant a source's settings name: authorization_code unless they say client_credentials. */
const grantOf = (auth: McpSourceConfig["auth"]) => auth?.grant ?? "authorization_code"

/**
 * Whether going from `before` to `after` moves the source's OAuth login: another URL (another resource, maybe
 * another authorization server), another client or grant, or none any more (a fixed authorization header); a
 * client-credentials source's login moves with any change of its settings (a new token is asked for at once).
 */
const loginMoved = (before: McpSourceConfig, after: McpSourceConfig): boolean => {
  const [was, is] = [oauthOf(before), oauthOf(after)]
  if (!was) return false
  if (!is || was.resource !== is.resource) return true
  const [a, b] = [before.auth ?? {}, after.auth ?? {}]
  if (a.clientId !== b.clientId || grantOf(a) !== grantOf(b)) return true
  return grantOf(b) === "client_credentials" && JSON.stringify(a) !== JSON.stringify(b)
}

/**
 * `PATCH /v1/sources/:namespace`: `{ "transport": { "env": {...} } }`, `{ "auth": {...} }` and the like; checked by
 * checkConfig afterwards. `dropped` names the stored secrets the patch took away (see movedSecrets): an http
 * source's `auth.clientSecret` too when its URL moves to another origin (its login would go to whatever server the
 * new origin names) without `auth` sent again. `auth` replaces the stored settings whole; `{}` removes them.
 */
export const mergeConfig = (
  current: unknown,
  patch: unknown,
): { ok: true; config: McpSourceConfig; dropped: string[]; loginMoved: boolean } | { ok: false; message: string } => {
  const stored = current as McpSourceConfig | null
  const transport = stored?.transport
  if (!transport) return { ok: false, message: "the stored source has no transport" }
  const checked = parseRequest(mcpSourcePatch[transport.type], patch)
  if (!checked.ok) return { ok: false, message: checked.error.message }
  const given = (checked.value.transport ?? {}) as Partial<Record<string, unknown>>
  const moved = movedSecrets(transport, given)
  const dropped = moved ? moved.names.map((name) => `transport.${moved.field}.${name}`) : []
  let auth = "auth" in checked.value ? checked.value.auth : stored.auth
  const newOrigin =
    transport.type === "http" && typeof given.url === "string" && originOf(given.url) !== originOf(transport.url)
  if (newOrigin && !("auth" in checked.value) && auth?.clientSecret !== undefined) {
    const { clientSecret: _, ...kept } = auth
    auth = kept
    dropped.push("auth.clientSecret")
  }
  const { auth: _, ...rest } = stored
  const config = {
    ...rest,
    transport: { ...transport, ...given, ...(moved ? { [moved.field]: {} } : {}) } as McpTransportConfig,
    ...(auth && Object.keys(auth).length > 0 ? { auth } : {}),
  }
  return { ok: true, config, dropped, loginMoved: loginMoved(stored, config) }
}
