/** The MCP source config as the API receives it, checked with ./config-schema.ts; its secrets are ./config-secrets.ts. */
import { parseRequest } from "@switchboard/core"
import type { z } from "zod"
import { mcpSourceConfig, mcpSourcePatch } from "./config-schema.js"

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

/** `PATCH /v1/sources/:namespace`: `{ "transport": { "env": {...} } }` and the like; checked by checkConfig afterwards. */
export const mergeConfig = (
  current: unknown,
  patch: unknown,
): { ok: true; config: McpSourceConfig } | { ok: false; message: string } => {
  const transport = (current as McpSourceConfig | null)?.transport
  if (!transport) return { ok: false, message: "the stored source has no transport" }
  const checked = parseRequest(mcpSourcePatch[transport.type], patch)
  if (!checked.ok) return { ok: false, message: checked.error.message }
  return {
    ok: true,
    config: {
      ...(current as McpSourceConfig),
      transport: { ...transport, ...checked.value.transport } as McpTransportConfig,
    },
  }
}
