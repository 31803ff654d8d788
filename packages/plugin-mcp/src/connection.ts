/**
 * One live MCP client session to a source, over stdio or streamable HTTP. The SDK's client is used for the
 * protocol (initialize, framing, cancellation) but never for result parsing: its strict schemas reject a
 * whole list or result for one odd part, so requests here take a permissive schema and core decodes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import type { McpTransportConfig } from "./config.js"

export interface McpConnection {
  client: Client
  /** the last lines the server wrote to stderr, to explain a crash */
  stderrTail(): string
  /** false once the transport closed (the process died or the session ended) */
  isOpen(): boolean
  close(): Promise<void>
}

export interface ConnectHandlers {
  onClose: () => void
  onToolsChanged: () => void
}

const STDERR_TAIL_BYTES = 4096

export const clientInfo = { name: "switchboard", version: "0.1.0" }

export const connect = async (transport: McpTransportConfig, handlers: ConnectHandlers, timeoutMs: number): Promise<McpConnection> => {
  const client = new Client(clientInfo, { capabilities: {} })
  let stderr = ""
  let open = true

  const wire =
    transport.type === "stdio"
      ? new StdioClientTransport({ command: transport.command, args: transport.args, env: transport.env, cwd: transport.cwd, stderr: "pipe" })
      : new StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: transport.headers } })
  if (wire instanceof StdioClientTransport) {
    wire.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES)
    })
  }

  client.onclose = () => {
    open = false
    handlers.onClose()
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => handlers.onToolsChanged())

  await client.connect(wire, { timeout: timeoutMs })
  return {
    client,
    stderrTail: () => stderr.trim(),
    isOpen: () => open,
    close: async () => {
      open = false
      await client.close().catch(() => undefined)
    },
  }
}
