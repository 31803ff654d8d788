/**
 * What a host needs of an MCP source's config without the plugin itself (no connection, no MCP SDK): where its
 * secrets are, to open them from a sealed store, its redacted form, to show it, and whether it logs in with OAuth. The plugin is built on it; a
 * command that only lists the catalog's sources (`switchboard sources list`) uses it alone.
 */
import type { SourcePlugin } from "@switchboard/core"
import { redactConfig, secretFields } from "./config-secrets.js"
import { oauthOf } from "./oauth-source.js"

export const mcpConfigView = {
  kind: "mcp",
  redactConfig,
  secretFields,
  oauth: oauthOf,
} as const satisfies Pick<SourcePlugin, "kind" | "redactConfig" | "secretFields" | "oauth">
