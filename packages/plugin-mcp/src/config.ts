/** The MCP source config as the API receives it, checked and redacted here and nowhere else. */

export type McpTransportConfig =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: "http"; url: string; headers: Record<string, string> }

export interface McpSourceConfig {
  transport: McpTransportConfig
}

export type ConfigCheck = { ok: true; config: McpSourceConfig } | { ok: false; reason: "invalid" | "forbidden"; message: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const isStringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((x) => typeof x === "string")

const invalid = (message: string): ConfigCheck => ({ ok: false, reason: "invalid", message })

export const checkConfig = (config: unknown, options: { allowStdio: boolean }): ConfigCheck => {
  const transport = isRecord(config) ? config.transport : undefined
  if (!isRecord(transport)) return invalid('an mcp source needs "transport": {"type":"stdio",...} or {"type":"http",...}')
  if (transport.type === "stdio") {
    const { command, args = [], env = {}, cwd } = transport
    if (typeof command !== "string" || command.length === 0) return invalid('transport.command must be a non-empty string')
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return invalid("transport.args must be an array of strings")
    if (!isStringMap(env)) return invalid("transport.env must be an object of string values")
    if (cwd !== undefined && typeof cwd !== "string") return invalid("transport.cwd must be a string")
    if (!options.allowStdio) {
      return { ok: false, reason: "forbidden", message: "stdio sources run a command on the host and are disabled on this server; start it with --allow-stdio to enable them" }
    }
    return { ok: true, config: { transport: { type: "stdio", command, args: args as string[], env, ...(cwd === undefined ? {} : { cwd: cwd as string }) } } }
  }
  if (transport.type === "http") {
    const { url, headers = {} } = transport
    let parsed: URL
    try {
      parsed = new URL(String(url))
    } catch {
      return invalid(`transport.url is not a URL: ${JSON.stringify(url)}`)
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return invalid("transport.url must be http or https")
    if (!isStringMap(headers)) return invalid("transport.headers must be an object of string values")
    return { ok: true, config: { transport: { type: "http", url: parsed.toString(), headers } } }
  }
  return invalid(`transport.type must be "stdio" or "http" (got ${JSON.stringify(transport.type)})`)
}

const redactValues = (map: Record<string, string>) => Object.fromEntries(Object.keys(map).map((k) => [k, "<redacted>"]))

/** Header and env values are secrets: only their names are ever shown. */
export const redactConfig = (config: unknown): unknown => {
  const transport = (config as McpSourceConfig | null)?.transport
  if (!transport) return null
  return transport.type === "stdio"
    ? { transport: { ...transport, env: redactValues(transport.env) } }
    : { transport: { ...transport, headers: redactValues(transport.headers) } }
}
