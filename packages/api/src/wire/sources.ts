/** The bodies of /v1/sources: a source as the API shows it (every secret redacted). */
import { z } from "zod"

export const sourceView = z.object({
  namespace: z.string().describe("scripts call `tools.<namespace>.<tool>`"),
  kind: z.string(),
  status: z
    .enum(["ready", "error", "needs_login"])
    .describe(
      "`needs_login`: the source asked for an OAuth login that nobody has made, or its login expired; `syncError` says how to log in",
    ),
  toolCount: z.int().min(0),
  lastSyncedAt: z.string().meta({ format: "date-time" }).nullable(),
  syncError: z.string().nullable(),
  config: z
    .unknown()
    .describe(
      "the source's config with every secret value replaced by \"<redacted>\"; for a key without admin, a stdio source's `args` are left out",
    ),
  auth: z
    .object({
      status: z
        .enum(["connected", "needs_login", "expired", "no_token"])
        .describe(
          "`needs_login`: nobody has logged in yet; `expired`: the login ended for good (a refresh refused, the grant revoked), " +
            "log in again; `no_token`: a client-credentials source whose first token has not been asked for yet (its next " +
            "call or sync asks for one, no person needed)",
        ),
      expiresAt: z.string().meta({ format: "date-time" }).nullable().describe("when the access token expires"),
      scopes: z.array(z.string()).describe("the scopes granted"),
    })
    .optional()
    .describe("its OAuth login, for a source that logs in with OAuth: never a token"),
})

export const sourceBody = z.object({ source: sourceView })
export type SourceBody = z.input<typeof sourceBody>

export const sourcePatchBody = z.object({
  source: sourceView,
  dropped: z
    .array(z.string())
    .describe(
      "the stored secrets this PATCH dropped because it sent the source elsewhere without sending them again: an http source's " +
        "headers and OAuth client secret when `transport.url` moves to another origin, a stdio source's env when `transport.args` " +
        "change (`transport.headers.authorization`, `auth.clientSecret`); and `oauth.tokens` when it changed the source's OAuth " +
        "client, grant, authorization server or resource: its login was dropped, and it needs a new one (`auth.status`)",
    ),
})
export type SourcePatchBody = z.input<typeof sourcePatchBody>

export const sourcesBody = z.object({ sources: z.array(sourceView) })
export type SourcesBody = z.input<typeof sourcesBody>

export const loginBody = z.object({
  authorizationUrl: z.string().describe("the page a person opens to log in and consent; good for one login"),
  expiresAt: z
    .string()
    .meta({ format: "date-time" })
    .describe("when the login expires if it is not completed (10 minutes)"),
})
export type LoginBody = z.input<typeof loginBody>
