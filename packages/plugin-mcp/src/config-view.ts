/**
 * What a host needs of an MCP source's config without the plugin itself (no connection, no MCP SDK): where its
 * secrets are, to open them from a sealed store, and its redacted form, to show it. The plugin is built on it; a
 * command that only lists the catalog's sources (`switchboard sources list`) uses it alone.
 */
import type { SourcePlugin } from "@switchboard/core"
import { redactConfig, secretFields } from "./config-secrets.js"

export const mcpConfigView = {
  kind: "mcp",
  redactConfig,
  secretFields,
} as const satisfies Pick<SourcePlugin, "kind" | "redactConfig" | "secretFields">
