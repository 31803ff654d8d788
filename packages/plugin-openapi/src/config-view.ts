/**
 * What a host needs of an OpenAPI source's config without the plugin: where its secrets are, its redacted form, and
 * what it says of its OAuth login (without the spec's endpoints, which the plugin reads when a login begins).
 */
import type { SourcePlugin } from "@switchboard/core"
import { redactConfig, secretFields } from "./config-secrets.js"
import { oauthOf } from "./oauth-login.js"

export const openApiConfigView = {
  kind: "openapi",
  redactConfig,
  secretFields,
  oauth: oauthOf,
} as const satisfies Pick<SourcePlugin, "kind" | "redactConfig" | "secretFields" | "oauth">
