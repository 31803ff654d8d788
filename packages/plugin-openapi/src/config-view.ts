/** What a host needs of an OpenAPI source's config without the plugin: where its secrets are, and its redacted form. */
import type { SourcePlugin } from "@switchboard/core"
import { redactConfig, secretFields } from "./config-secrets.js"

export const openApiConfigView = {
  kind: "openapi",
  redactConfig,
  secretFields,
} as const satisfies Pick<SourcePlugin, "kind" | "redactConfig" | "secretFields">
