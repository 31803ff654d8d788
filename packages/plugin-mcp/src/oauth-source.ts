/** Which MCP sources log in with OAuth, read from a config alone (no schema, no SDK: ./config-view.ts uses it). */
import type { OAuthSource } from "@switchboard/core"
import type { z } from "zod"
import type { mcpSourceConfig } from "./config-schema.js"

type McpSourceConfig = z.output<typeof mcpSourceConfig>

/** An http source logs in with OAuth unless its headers carry an `authorization` of their own. */
export const oauthOf = (config: unknown): OAuthSource | null => {
  const { transport, auth } = (config ?? {}) as Partial<McpSourceConfig>
  if (transport?.type !== "http") return null
  if (Object.keys(transport.headers ?? {}).some((name) => name.toLowerCase() === "authorization")) return null
  return { resource: transport.url, settings: auth ?? {} }
}
