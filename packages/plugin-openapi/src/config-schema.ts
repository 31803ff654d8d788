/**
 * The OpenAPI source's part of the API bodies, defined once: where its spec is, the base URL its calls go to, the
 * credentials for the spec's security schemes, static headers and a timeout. Each message names its field.
 */
import { z } from "zod"
import { isRecord } from "@switchboard/core"
import { isOAuthEntry } from "./oauth-login.js"
import * as OAuth from "@switchboard/core/oauth"

/** An inline spec is stored with the source and read with it at every call: a larger one is given by its URL. */
export const MAX_INLINE_SPEC_CHARS = 1024 * 1024

const httpUrl = (field: string) =>
  z
    .string({ error: `${field} must be an http or https URL` })
    .transform((url, ctx) => {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        ctx.issues.push({
          code: "custom",
          input: url,
          message: `${field} is not a URL: it needs http:// or https:// and a host`,
        })
        return z.NEVER
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
        ctx.issues.push({ code: "custom", input: url, message: `${field} must be http or https` })
        return z.NEVER
      }
      if (parsed.username || parsed.password) {
        ctx.issues.push({
          code: "custom",
          input: url,
          message: `${field} must not carry a user or password: give credentials in "auth" or "headers"`,
        })
        return z.NEVER
      }
      return parsed.toString()
    })
    .meta({ format: "uri" })

const spec = z.union(
  [
    z.strictObject({ url: httpUrl("spec.url") }),
    z.strictObject({
      inline: z.string({ error: "spec.inline must be the spec's text (JSON or YAML)" }).max(MAX_INLINE_SPEC_CHARS, {
        error: `spec.inline is longer than ${MAX_INLINE_SPEC_CHARS} characters: serve the spec and give spec.url instead`,
      }),
    }),
  ],
  { error: 'an openapi source needs "spec": {"url": "https://..."} or {"inline": "<JSON or YAML text>"}' },
)

const CREDENTIAL =
  'each auth value is a string (a token or key), {"username", "password"} for basic, or OAuth settings ' +
  '{"clientId"?, "clientSecret"?, "scopes"?, "grant"?, "authorizationUrl"?, "tokenUrl"?, "resource"?} for an oauth2 scheme'

const SETTINGS_WHERE = "auth.<scheme>"

/**
 * How a source logs in with the spec's oauth2 scheme: core's settings, and the spec's flow URLs overridden (a
 * provider whose spec names no flow, or another server for it). Sealed: `clientSecret`.
 */
export const openApiOAuthSettings = z
  .strictObject(
    {
      ...OAuth.oauthSettingsShape(SETTINGS_WHERE),
      authorizationUrl: httpUrl(`${SETTINGS_WHERE}.authorizationUrl`)
        .optional()
        .describe("instead of the spec's flow's authorizationUrl"),
      tokenUrl: httpUrl(`${SETTINGS_WHERE}.tokenUrl`).optional().describe("instead of the spec's flow's tokenUrl"),
      resource: httpUrl(`${SETTINGS_WHERE}.resource`)
        .optional()
        .describe(
          "the resource indicator (RFC 8707) to ask tokens for, for a server that issues them per API; none is sent without it",
        ),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `${CREDENTIAL}; not ${issue.keys.map((k) => `"${k}"`).join(", ")}`
          : CREDENTIAL,
    },
  )
  .superRefine(OAuth.oauthSettingsRule(SETTINGS_WHERE))

const basic = z.strictObject({ username: z.string(), password: z.string() })

const credential = z.union([z.string(), basic, openApiOAuthSettings], {
  error: (issue) => {
    // an object that is no basic credential is OAuth settings: their first problem says more than the union's
    const input = issue.input
    const settingsIssues = issue.code === "invalid_union" ? issue.errors[2] : undefined
    if (isRecord(input) && !("username" in input) && !("password" in input) && settingsIssues?.[0])
      return settingsIssues[0].message
    return CREDENTIAL
  },
})

const AUTH =
  "secret: a credential for each of the spec's securitySchemes, by name: a token (http bearer, or a token got " +
  'elsewhere for an oauth2 scheme), an API key (apiKey), {"username","password"} (http basic), or OAuth ' +
  "settings for an oauth2 scheme (the source then logs in: `switchboard sources login`, or by itself with " +
  "the client credentials grant); an oauth2 scheme needs no entry to log in with a registered client. " +
  "OpenID Connect and mutual TLS schemes are refused"

/** `auth` with no default: a PATCH that does not send it keeps the stored one */
const auth = z
  .record(z.string(), credential, { error: "auth must be an object: security scheme name -> credential" })
  .refine((given) => Object.values(given).filter(isOAuthEntry).length <= 1, {
    error: "auth gives OAuth settings for more than one scheme: a source logs in with one oauth2 scheme",
  })

const headers = z.record(z.string(), z.string({ error: "headers must be an object of string values" }), {
  error: "headers must be an object of string values",
})

/** The fields of POST /v1/sources an openapi source takes besides namespace and kind. */
export const openApiSourceConfig = z.object({
  spec: spec.describe("the OpenAPI 3.0 or 3.1 document (JSON or YAML): its URL, or its text"),
  baseUrl: httpUrl("baseUrl").optional().describe("where calls go, instead of the spec's servers"),
  auth: auth.default({}).describe(AUTH),
  headers: headers.default({}).describe("secret: sent with every call; values are never echoed"),
  timeoutMs: z
    .number({ error: "timeoutMs must be a whole number of milliseconds" })
    .int({ error: "timeoutMs must be a whole number of milliseconds" })
    .min(1)
    .max(600_000)
    .optional()
    .describe("how long one call may take (default 30 s); a call also ends with its execution"),
})

export type OpenApiSourceConfig = z.output<typeof openApiSourceConfig>

/** What a PATCH may replace, each whole: the credentials. */
export const openApiSourcePatch = z.strictObject(
  {
    auth: auth.optional().describe(AUTH),
    headers: headers.optional().describe("secret: sent with every call; values are never echoed"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `a PATCH of an openapi source replaces only "auth" or "headers", not ${issue.keys.map((k) => `"${k}"`).join(", ")}; ` +
          "delete and add the source to change the rest"
        : 'the body must be {"auth": {...}} or {"headers": {...}}',
  },
)
