/**
 * A source's `auth`: how it logs in with OAuth, where the operator has a say. Every field is optional: a source that
 * answers 401 with a `WWW-Authenticate` challenge logs in by discovery and dynamic client registration alone. A
 * plugin takes this schema into its source's body (plugin-mcp's config-schema.ts); `clientSecret` is a secret,
 * sealed at rest with the rest of the source's secrets.
 */
import { z } from "zod"

/** a scope token (RFC 6749 §3.3): printable ASCII without space, `"` or `\` */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/

/**
 * The fields of a source's `auth`, their messages naming them under `where` (`auth`, or plugin-openapi's
 * `auth.<scheme>`), for a plugin whose settings hold more (plugin-openapi's endpoints).
 */
export const oauthSettingsShape = (where: string) => ({
  clientId: z
    .string({ error: `${where}.clientId must be a string` })
    .min(1, { error: `${where}.clientId must not be empty` })
    .optional()
    .describe(
      "a client registered with the authorization server beforehand; without it, the server registers one " +
        "itself (RFC 7591) where the authorization server allows it",
    ),
  clientSecret: z
    .string({ error: `${where}.clientSecret must be a string` })
    .min(1, { error: `${where}.clientSecret must not be empty` })
    .optional()
    .describe("that client's secret; secret: sealed at rest, never echoed"),
  scopes: z
    .array(
      z.string().regex(SCOPE_TOKEN, { error: `each of ${where}.scopes must be one scope token, without spaces` }),
      {
        error: `${where}.scopes must be an array of strings`,
      },
    )
    .optional()
    .describe(
      "the scopes to ask for; without them, those the source names (its 401, its metadata, its spec's operations). " +
        "offline_access is added where the authorization server lists it, so a refresh token comes back",
    ),
  grant: z
    .enum(["authorization_code", "client_credentials"], {
      error: `${where}.grant must be "authorization_code" or "client_credentials"`,
    })
    .optional()
    .describe(
      "authorization_code (the default): a person logs in once; client_credentials: machine to machine, with " +
        "clientId and clientSecret, no login",
    ),
})

/** What a source's `auth` must hold together: a secret with its client, a machine grant with both. */
export const oauthSettingsRule =
  (where: string) =>
  (settings: { clientId?: string; clientSecret?: string; grant?: string }, ctx: z.core.$RefinementCtx) => {
    if (settings.clientSecret !== undefined && settings.clientId === undefined)
      ctx.addIssue({ code: "custom", message: `${where}.clientSecret needs ${where}.clientId`, path: ["clientSecret"] })
    if (settings.grant === "client_credentials" && (!settings.clientId || !settings.clientSecret))
      ctx.addIssue({
        code: "custom",
        message: `${where}.grant client_credentials needs ${where}.clientId and ${where}.clientSecret`,
        path: ["grant"],
      })
  }

export const oauthSettings = z
  .strictObject(oauthSettingsShape("auth"), {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `auth takes clientId, clientSecret, scopes and grant, not ${issue.keys.map((k) => `"${k}"`).join(", ")}`
        : "auth must be an object: { clientId?, clientSecret?, scopes?, grant? }",
  })
  .superRefine(oauthSettingsRule("auth"))
  .describe("how the source logs in with OAuth (a source that answers 401 with a challenge needs none of it)")

export type OAuthSettings = z.output<typeof oauthSettings>

/** Where the secret of a source's `auth` is, under the field that holds it. */
export const OAUTH_SECRET_FIELD = "clientSecret"
